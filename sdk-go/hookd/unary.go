package hookd

import (
	"context"
	"sync/atomic"

	"google.golang.org/grpc/metadata"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// server implements hookdv1.HookPluginServer over a Plugin: Describe, every point's unary RPC
// and Attach (attach.go), all through the same handlers.
type server struct {
	hookdv1.UnimplementedHookPluginServer
	plugin   *Plugin
	name     string
	manifest *hookdv1.PluginManifest
	onError  func(point hookdv1.Point, err error)
	// draining is closed when shutdown begins: open Attach streams then end once idle.
	draining chan struct{}
	// configured is the name the daemon's config gives the plugin (DescribeRequest.plugin_name).
	configured atomic.Pointer[string]
}

func (s *server) configuredName() string {
	if name := s.configured.Load(); name != nil {
		return *name
	}
	return ""
}

func (s *server) Describe(_ context.Context, req *hookdv1.DescribeRequest) (*hookdv1.DescribeResponse, error) {
	if name := req.GetPluginName(); name != "" {
		s.configured.Store(&name)
	}
	return &hookdv1.DescribeResponse{Manifest: s.manifest}, nil
}

// unaryContext is ctx with the CallInfo of a unary call (its traceparent from the metadata).
func unaryContext(ctx context.Context) context.Context {
	info := CallInfo{Transport: "unary"}
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if values := md.Get("traceparent"); len(values) > 0 {
			info.Traceparent = values[0]
		}
	}
	return context.WithValue(ctx, callInfoKey{}, info)
}

// withCallInfo keeps a stream call's CallInfo, or sets a unary call's.
func withCallInfo(ctx context.Context) context.Context {
	if _, ok := CallInfoFrom(ctx); ok {
		return ctx
	}
	return unaryContext(ctx)
}

func (s *server) SessionStart(ctx context.Context, req *hookdv1.SessionStartRequest) (*hookdv1.SessionStartResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_SESSION_START, s.plugin.SessionStart, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.SessionStartResponse{Decision: d}, nil
}

func (s *server) PreStep(ctx context.Context, req *hookdv1.PreStepRequest) (*hookdv1.PreStepResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_PRE_STEP, s.plugin.PreStep, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.PreStepResponse{Decision: d}, nil
}

func (s *server) PreTool(ctx context.Context, req *hookdv1.PreToolRequest) (*hookdv1.PreToolResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_PRE_TOOL, s.plugin.PreTool, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.PreToolResponse{Decision: d}, nil
}

func (s *server) Guard(ctx context.Context, req *hookdv1.GuardRequest) (*hookdv1.GuardResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_GUARD, s.plugin.Guard, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.GuardResponse{Decision: d}, nil
}

func (s *server) Execute(ctx context.Context, req *hookdv1.ExecuteRequest) (*hookdv1.ExecuteResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_EXECUTE, s.plugin.Execute, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.ExecuteResponse{Decision: d}, nil
}

func (s *server) PostTool(ctx context.Context, req *hookdv1.PostToolRequest) (*hookdv1.PostToolResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_POST_TOOL, s.plugin.PostTool, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.PostToolResponse{Decision: d}, nil
}

func (s *server) TurnStopping(ctx context.Context, req *hookdv1.TurnStoppingRequest) (*hookdv1.TurnStoppingResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_TURN_STOPPING, s.plugin.TurnStopping, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.TurnStoppingResponse{Decision: d}, nil
}

func (s *server) Rewrite(ctx context.Context, req *hookdv1.RewriteRequest) (*hookdv1.RewriteResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_REWRITE, s.plugin.Rewrite, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.RewriteResponse{Decision: d}, nil
}

func (s *server) Approve(ctx context.Context, req *hookdv1.ApproveRequest) (*hookdv1.ApproveResponse, error) {
	d, err := decide(withCallInfo(ctx), s, hookdv1.Point_POINT_APPROVAL, s.plugin.Approval, req.GetEvent())
	if err != nil {
		return nil, err
	}
	return &hookdv1.ApproveResponse{Decision: d}, nil
}

func (s *server) ToolResult(ctx context.Context, req *hookdv1.ToolResultRequest) (*hookdv1.ToolResultResponse, error) {
	if err := observe(withCallInfo(ctx), s, hookdv1.Point_POINT_TOOL_RESULT, s.plugin.ToolResult, req.GetEvent()); err != nil {
		return nil, err
	}
	return &hookdv1.ToolResultResponse{}, nil
}

func (s *server) SessionEnd(ctx context.Context, req *hookdv1.SessionEndRequest) (*hookdv1.SessionEndResponse, error) {
	if err := observe(withCallInfo(ctx), s, hookdv1.Point_POINT_SESSION_END, s.plugin.SessionEnd, req.GetEvent()); err != nil {
		return nil, err
	}
	return &hookdv1.SessionEndResponse{}, nil
}

func (s *server) TurnEnd(ctx context.Context, req *hookdv1.TurnEndRequest) (*hookdv1.TurnEndResponse, error) {
	if err := observe(withCallInfo(ctx), s, hookdv1.Point_POINT_TURN_END, s.plugin.TurnEnd, req.GetEvent()); err != nil {
		return nil, err
	}
	return &hookdv1.TurnEndResponse{}, nil
}

func (s *server) AgentEvent(ctx context.Context, req *hookdv1.AgentEventRequest) (*hookdv1.AgentEventResponse, error) {
	if err := observe(withCallInfo(ctx), s, hookdv1.Point_POINT_AGENT_EVENT, s.plugin.AgentEvent, req.GetEvent()); err != nil {
		return nil, err
	}
	return &hookdv1.AgentEventResponse{}, nil
}
