package hookdtest

import (
	"context"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// The typed calls, one per point: each sends the event the way the daemon does and returns the
// plugin's decision, or the error status it answered (codes.Unimplemented for a point it does
// not handle).

func (c *Client) SessionStart(ctx context.Context, event *hookdv1.SessionStartEvent) (*hookdv1.SessionStartDecision, error) {
	resp := &hookdv1.SessionStartResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_SESSION_START, "SessionStart", &hookdv1.SessionStartRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) PreStep(ctx context.Context, event *hookdv1.PreStepEvent) (*hookdv1.PreStepDecision, error) {
	resp := &hookdv1.PreStepResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_PRE_STEP, "PreStep", &hookdv1.PreStepRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) PreTool(ctx context.Context, event *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
	resp := &hookdv1.PreToolResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_PRE_TOOL, "PreTool", &hookdv1.PreToolRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) Guard(ctx context.Context, event *hookdv1.GuardEvent) (*hookdv1.GuardDecision, error) {
	resp := &hookdv1.GuardResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_GUARD, "Guard", &hookdv1.GuardRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) Execute(ctx context.Context, event *hookdv1.ExecuteEvent) (*hookdv1.ExecuteDecision, error) {
	resp := &hookdv1.ExecuteResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_EXECUTE, "Execute", &hookdv1.ExecuteRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) PostTool(ctx context.Context, event *hookdv1.PostToolEvent) (*hookdv1.PostToolDecision, error) {
	resp := &hookdv1.PostToolResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_POST_TOOL, "PostTool", &hookdv1.PostToolRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) TurnStopping(ctx context.Context, event *hookdv1.TurnStoppingEvent) (*hookdv1.TurnStoppingDecision, error) {
	resp := &hookdv1.TurnStoppingResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_TURN_STOPPING, "TurnStopping", &hookdv1.TurnStoppingRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) Rewrite(ctx context.Context, event *hookdv1.RewriteEvent) (*hookdv1.RewriteDecision, error) {
	resp := &hookdv1.RewriteResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_REWRITE, "Rewrite", &hookdv1.RewriteRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) Approval(ctx context.Context, event *hookdv1.ApprovalEvent) (*hookdv1.ApprovalDecision, error) {
	resp := &hookdv1.ApproveResponse{}
	err := c.call(ctx, hookdv1.Point_POINT_APPROVAL, "Approve", &hookdv1.ApproveRequest{Event: event}, resp)
	return resp.GetDecision(), err
}

func (c *Client) ToolResult(ctx context.Context, event *hookdv1.ToolResultEvent) error {
	return c.call(ctx, hookdv1.Point_POINT_TOOL_RESULT, "ToolResult", &hookdv1.ToolResultRequest{Event: event}, &hookdv1.ToolResultResponse{})
}

func (c *Client) SessionEnd(ctx context.Context, event *hookdv1.SessionEndEvent) error {
	return c.call(ctx, hookdv1.Point_POINT_SESSION_END, "SessionEnd", &hookdv1.SessionEndRequest{Event: event}, &hookdv1.SessionEndResponse{})
}

func (c *Client) TurnEnd(ctx context.Context, event *hookdv1.TurnEndEvent) error {
	return c.call(ctx, hookdv1.Point_POINT_TURN_END, "TurnEnd", &hookdv1.TurnEndRequest{Event: event}, &hookdv1.TurnEndResponse{})
}

func (c *Client) AgentEvent(ctx context.Context, event *hookdv1.AgentEventEvent) error {
	return c.call(ctx, hookdv1.Point_POINT_AGENT_EVENT, "AgentEvent", &hookdv1.AgentEventRequest{Event: event}, &hookdv1.AgentEventResponse{})
}
