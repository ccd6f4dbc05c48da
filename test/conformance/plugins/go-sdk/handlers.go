package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// common acts out the scenarios every point shares (the raw ones never reach a handler); done is
// false for the others.
func common(ctx context.Context, scenario string) (done bool, err error) {
	switch scenario {
	case "hang":
		<-ctx.Done()
		return true, ctx.Err()
	case "crash":
		fmt.Fprintf(os.Stderr, "%s %d: crashing mid-call\n", name, os.Getpid())
		os.Exit(1)
	}
	// Honour the deadline: an answer after it is of no use.
	return ctx.Err() != nil, ctx.Err()
}

func scenarioOfCall(call *hookdv1.ToolCall) string {
	var args struct {
		Scenario string `json:"scenario"`
	}
	if json.Unmarshal([]byte(call.GetArgumentsJson()), &args) != nil {
		return ""
	}
	return args.Scenario
}

func firstText(messages []*hookdv1.Message) string {
	if len(messages) == 0 {
		return ""
	}
	return hookd.MessageText(messages[0])
}

func userMessage(text string) *hookdv1.Message {
	return &hookdv1.Message{
		Role:    hookdv1.Role_ROLE_USER,
		Content: []*hookdv1.ContentBlock{hookd.Text(text)},
		Source:  &hookdv1.MessageSource{Kind: &hookdv1.MessageSource_User{User: &hookdv1.UserSource{}}},
	}
}

func contextMessage() *hookdv1.Message {
	return hookd.PluginMessage(name, "conformance: context from "+lang)
}

// withText is the same message (role, id, the source the plugin saw) with its content replaced.
func withText(original *hookdv1.Message, content string) *hookdv1.Message {
	changed := proto.Clone(original).(*hookdv1.Message)
	changed.Content = []*hookdv1.ContentBlock{hookd.Text(content)}
	return changed
}

func preTool(ctx context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
	scenario := scenarioOfCall(ev.GetCall())
	if done, err := common(ctx, scenario); done {
		return nil, err
	}
	switch scenario {
	case "allow":
		return hookd.PreTool.Allow(), nil
	case "deny":
		return hookd.PreTool.Deny("conformance: denied by " + lang), nil
	case "ask":
		return hookd.PreTool.Ask("conformance: asked by " + lang), nil
	}
	return hookd.PreTool.Pass(), nil
}

func postTool(ctx context.Context, ev *hookdv1.PostToolEvent) (*hookdv1.PostToolDecision, error) {
	scenario := scenarioOfCall(ev.GetCall())
	if done, err := common(ctx, scenario); done {
		return nil, err
	}
	replaced := hookd.Text("conformance: replaced by " + lang)
	value := `{"replacedBy":"` + lang + `"}`
	switch scenario {
	case "block":
		return hookd.PostTool.Block("conformance: blocked by " + lang), nil
	case "replace":
		return hookd.PostTool.ReplaceContent(replaced), nil
	case "value":
		return hookd.PostTool.ReplaceValue(value), nil
	case "context":
		return hookd.PostTool.Accept(contextMessage()), nil
	case "invalid":
		// Content AND value: no constructor builds it; the daemon must refuse it.
		both := &hookdv1.Accept{Content: &hookdv1.ContentReplacement{Blocks: []*hookdv1.ContentBlock{replaced}}, ValueJson: &value}
		return &hookdv1.PostToolDecision{Decision: &hookdv1.PostToolDecision_Accept{Accept: both}}, nil
	case "forge-context":
		return hookd.PostTool.Accept(userMessage("conformance: forged by " + lang)), nil
	}
	return hookd.PostTool.Pass(), nil
}

func preStep(ctx context.Context, ev *hookdv1.PreStepEvent) (*hookdv1.PreStepDecision, error) {
	messages := ev.GetMessages()
	first := firstText(messages)
	if done, err := common(ctx, first); done {
		return nil, err
	}
	switch {
	case strings.HasPrefix(first, "inject"):
		return hookd.PreStep.Enter(append(append([]*hookdv1.Message{}, messages...), contextMessage())...), nil
	case strings.HasPrefix(first, "reject"):
		return hookd.PreStep.Reject("conformance: rejected by " + lang), nil
	case strings.HasPrefix(first, "redact"):
		redacted := withText(messages[0], strings.ReplaceAll(first, secret, "[redacted]"))
		return hookd.PreStep.Enter(append([]*hookdv1.Message{redacted}, messages[1:]...)...), nil
	case strings.HasPrefix(first, "rewrite"):
		rewritten := withText(messages[0], "conformance: prompt rewritten by "+lang)
		return hookd.PreStep.Enter(append([]*hookdv1.Message{rewritten}, messages[1:]...)...), nil
	case strings.HasPrefix(first, "forge"):
		forged := hookd.PluginMessage("someone-else", "conformance: forged by "+lang)
		return hookd.PreStep.Enter(append(append([]*hookdv1.Message{}, messages...), forged)...), nil
	}
	return hookd.PreStep.Pass(), nil
}

func rewrite(ctx context.Context, ev *hookdv1.RewriteEvent) (*hookdv1.RewriteDecision, error) {
	scenario := scenarioOfCall(ev.GetCall())
	if done, err := common(ctx, scenario); done {
		return nil, err
	}
	switch scenario {
	case "replace":
		return hookd.Rewrite.Replace(`{"scenario":"replace","rewrittenBy":"` + lang + `"}`), nil
	case "patch":
		return hookd.Rewrite.Patch(`{"patchedBy":"` + lang + `","drop":null,"nested":{"added":true}}`), nil
	case "non-object":
		return hookd.Rewrite.Replace(`["not","an","object"]`), nil
	case "patch-non-object":
		return hookd.Rewrite.Patch(`"not an object"`), nil
	case "invalid-json":
		return hookd.Rewrite.Replace(`{"scenario": `), nil
	case "big-int":
		arguments, err := hookd.Arguments(ev.GetCall())
		if err != nil {
			return nil, status.Error(codes.InvalidArgument, err.Error())
		}
		arguments["rewrittenBy"] = lang
		text, err := hookd.EncodeJSON(arguments)
		return hookd.Rewrite.Replace(text), err
	}
	return hookd.Rewrite.Pass(), nil
}

func approval(ctx context.Context, ev *hookdv1.ApprovalEvent) (*hookdv1.ApprovalDecision, error) {
	scenario := scenarioOfCall(ev.GetCall())
	if decision, handled, err := streamContract(ctx, scenario, ev); handled {
		return decision, err
	}
	if done, err := common(ctx, scenario); done {
		return nil, err
	}
	switch scenario {
	case "approve":
		return hookd.Approval.Approve(), nil
	case "reject":
		return hookd.Approval.Reject("conformance: rejected by " + lang), nil
	}
	return hookd.Approval.Pass(), nil
}

func turnStopping(ctx context.Context, ev *hookdv1.TurnStoppingEvent) (*hookdv1.TurnStoppingDecision, error) {
	said := hookd.MessageText(ev.GetLastAssistantMessage())
	if done, err := common(ctx, said); done {
		return nil, err
	}
	switch said {
	case "steer":
		return hookd.TurnStopping.Steer(hookd.PluginMessage(name, "conformance: steered by "+lang)), nil
	case "forge-steer":
		return hookd.TurnStopping.Steer(userMessage("conformance: steered by " + lang)), nil
	}
	return hookd.TurnStopping.Pass(), nil
}

func sessionEnd(_ context.Context, ev *hookdv1.SessionEndEvent) error {
	return record("session-end", ev.GetSession(), map[string]any{
		"reason": enumName(ev.GetReason().String(), "SESSION_END_REASON_"),
		"detail": ev.GetDetail(),
		"turns":  ev.GetTurns(),
	})
}

func turnEnd(_ context.Context, ev *hookdv1.TurnEndEvent) error {
	return record("turn-end", ev.GetSession(), map[string]any{
		"turn":    ev.GetTurn(),
		"outcome": enumName(ev.GetOutcome().String(), "TURN_END_OUTCOME_"),
		"detail":  ev.GetDetail(),
		"steps":   ev.GetSteps(),
	})
}

func agentEvent(_ context.Context, ev *hookdv1.AgentEventEvent) error {
	return record("agent-event", ev.GetSession(), map[string]any{
		"dialect":   enumName(ev.GetDialect().String(), "AGENT_DIALECT_"),
		"eventName": ev.GetEventName(),
		// The payload's JSON text exactly as the daemon sent it (its canonical form).
		"payloadJson": ev.GetPayloadJson(),
	})
}

// record writes what a notification received, atomically, where the test reads it.
func record(point string, session *hookdv1.SessionInfo, fields map[string]any) error {
	return recordAs(point, point, session, fields)
}

// recordAs writes what a call at point received as <name>.<session id>.json.
func recordAs(name, point string, session *hookdv1.SessionInfo, fields map[string]any) error {
	dir := os.Getenv(recordsEnv)
	if dir == "" {
		return nil
	}
	fields["point"] = point
	fields["sessionId"] = session.GetSessionId()
	fields["agentId"] = session.GetAgentId()
	fields["parentSessionId"] = session.GetParentSessionId()
	fields["agentType"] = session.GetAgentType()
	data, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	temporary, err := os.CreateTemp(dir, ".record-")
	if err != nil {
		return err
	}
	if _, err := temporary.Write(data); err != nil {
		temporary.Close()
		return err
	}
	if err := temporary.Close(); err != nil {
		return err
	}
	return os.Rename(temporary.Name(), filepath.Join(dir, name+"."+session.GetSessionId()+".json"))
}

// enumName turns SESSION_END_REASON_DAEMON_STOPPING into daemon-stopping.
func enumName(value, prefix string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(value, prefix)), "_", "-")
}
