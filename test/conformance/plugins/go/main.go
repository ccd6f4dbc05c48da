// Command conformance-plugin is the hookd conformance plugin in Go (conformance-go). It behaves
// exactly like the TypeScript and Python conformance plugins, so one scenario table
// (test/conformance/suite.ts) runs against all three through a real daemon.
//
// The scenario is read from the event: at pre-tool, post-tool, rewrite and approval from the tool
// call's arguments field "scenario"; at pre-step from the text of the first message ("inject…",
// "reject…", "redact…", "rewrite…" and "forge…" match by prefix); at turn-stopping from the text
// of the last assistant message. Scenarios at every subscribed point:
//
//	pass           answer Pass
//	hang           never answer; wait until the call is cancelled (deadline or caller)
//	crash          the process exits abruptly in the middle of the call (os.Exit(1))
//	garbage        answer bytes that do not parse: a varint where the decision message belongs
//	wrong-variant  answer another point's response (pre-tool: a PostToolResponse; others: a
//	               PreToolResponse)
//
// pre-tool: allow, deny, ask. post-tool: block, replace (content), value (canonical value),
// context (additional context), invalid (Accept with BOTH content and value_json), forge-context
// (an additional context claiming the user as its source). pre-step: inject… (enter the same
// messages plus one context message), reject…, redact… (enter the batch with "SECRET-1234" in the
// first message redacted), rewrite… (the first message's text replaced), forge… (the batch plus a
// message sourced to another plugin). rewrite: replace, patch (RFC 7386), non-object,
// patch-non-object, invalid-json, big-int (the arguments re-emitted losslessly plus one key).
// approval: approve, reject. turn-stopping: steer, forge-steer (steering sourced as the user).
// session-end, turn-end: record the event as JSON in $HOOKD_CONFORMANCE_RECORDS/<point>.<session
// id>.json before answering. agent-event (subscribed with the matcher "Conformance*"): record the
// dialect, the event name and the payload's JSON text the same way. Anything else passes.
//
// The manifest subscribes to the points $HOOKD_CONFORMANCE_POINTS names (comma-separated; all
// this plugin serves when unset). With $HOOKD_CONFORMANCE_UNREACHABLE set the process exits before
// it serves.
//
// The HookPlugin service is registered by hand (a grpc.ServiceDesc whose handlers return any
// proto.Message; of sdk-go only its generated hookdv1 package is imported, not the SDK), so a handler can answer another RPC's response, or an emptypb.Empty whose
// unknown fields carry the garbage bytes verbatim. Health reports SERVING for "" and
// hookd.v1.HookPlugin. The manifest's failure policy is fail-closed unless
// $HOOKD_CONFORMANCE_FAILURE_POLICY says "fail-open" (the daemon's config may override it).
//
// Usage: conformance-plugin [--listen unix:PATH|HOST:PORT]; without --listen it serves on the
// Unix socket named by $HOOKD_PLUGIN_SOCKET.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

const (
	lang       = "go"
	name       = "conformance-" + lang
	service    = "hookd.v1.HookPlugin"
	socketEnv  = "HOOKD_PLUGIN_SOCKET"
	policyEnv  = "HOOKD_CONFORMANCE_FAILURE_POLICY"
	pointsEnv  = "HOOKD_CONFORMANCE_POINTS"
	recordsEnv = "HOOKD_CONFORMANCE_RECORDS"
	unreachEnv = "HOOKD_CONFORMANCE_UNREACHABLE"
	secret     = "SECRET-1234"
	stopGrace  = 2 * time.Second
	versionTag = "1.0.0"
)

func main() {
	listen := flag.String("listen", "", "address to serve on, unix:PATH or HOST:PORT (default: unix socket from $"+socketEnv+")")
	flag.Parse()
	if os.Getenv(unreachEnv) != "" {
		fmt.Fprintf(os.Stderr, "%s %d: $%s is set: exiting before serving\n", name, os.Getpid(), unreachEnv)
		os.Exit(3)
	}
	if err := run(*listen); err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
}

func run(listen string) error {
	policy, err := failurePolicy()
	if err != nil {
		return err
	}
	points, err := subscribedPoints()
	if err != nil {
		return err
	}
	addr := listen
	if addr == "" {
		path := os.Getenv(socketEnv)
		if path == "" {
			return fmt.Errorf("no address: pass --listen or set %s", socketEnv)
		}
		addr = "unix:" + path
	}
	lis, err := listenOn(addr)
	if err != nil {
		return err
	}

	srv := grpc.NewServer()
	healthSrv := health.NewServer()
	healthpb.RegisterHealthServer(srv, healthSrv)
	healthSrv.SetServingStatus(service, healthpb.HealthCheckResponse_SERVING)
	srv.RegisterService(serviceDesc(), &conformance{policy: policy, points: points})

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(lis) }()
	fmt.Fprintf(os.Stderr, "%s %d: serving on %s\n", name, os.Getpid(), addr)
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	healthSrv.Shutdown()
	drained := make(chan struct{})
	go func() {
		srv.GracefulStop()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(stopGrace):
		srv.Stop()
		<-drained
	}
	return <-served
}

func failurePolicy() (hookdv1.FailurePolicy, error) {
	switch value := os.Getenv(policyEnv); value {
	case "", "fail-closed":
		return hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_CLOSED, nil
	case "fail-open":
		return hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_OPEN, nil
	default:
		return 0, fmt.Errorf("$%s must be fail-closed or fail-open, got %q", policyEnv, value)
	}
}

// listenOn opens "unix:PATH" (also "unix://PATH") or a TCP "HOST:PORT", replacing a socket file
// left behind by a dead process (a crashed predecessor leaves one).
func listenOn(addr string) (net.Listener, error) {
	path, ok := strings.CutPrefix(addr, "unix:")
	if !ok {
		return net.Listen("tcp", addr)
	}
	path = strings.TrimPrefix(path, "//")
	if info, err := os.Lstat(path); err == nil {
		if info.Mode().Type() != fs.ModeSocket {
			return nil, fmt.Errorf("%s exists and is not a socket", path)
		}
		if conn, err := net.DialTimeout("unix", path, time.Second); err == nil {
			conn.Close()
			return nil, fmt.Errorf("%s is in use by another server", path)
		}
		if err := os.Remove(path); err != nil {
			return nil, err
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	return net.Listen("unix", path)
}

// ---- the service, registered by hand -------------------------------------------------------

type conformance struct {
	policy hookdv1.FailurePolicy
	points []hookdv1.Point
}

// servedPoints are the points this plugin serves, by the daemon's names, in firing order.
var servedPoints = []struct {
	name  string
	point hookdv1.Point
}{
	{"pre-step", hookdv1.Point_POINT_PRE_STEP},
	{"rewrite", hookdv1.Point_POINT_REWRITE},
	{"pre-tool", hookdv1.Point_POINT_PRE_TOOL},
	{"approval", hookdv1.Point_POINT_APPROVAL},
	{"post-tool", hookdv1.Point_POINT_POST_TOOL},
	{"turn-stopping", hookdv1.Point_POINT_TURN_STOPPING},
	{"turn-end", hookdv1.Point_POINT_TURN_END},
	{"session-end", hookdv1.Point_POINT_SESSION_END},
	{"agent-event", hookdv1.Point_POINT_AGENT_EVENT},
}

// agentEventMatchers are the event names this plugin observes at agent-event (a whole-name glob
// the daemon applies).
var agentEventMatchers = []string{"Conformance*"}

func subscribedPoints() ([]hookdv1.Point, error) {
	value, set := os.LookupEnv(pointsEnv)
	var points []hookdv1.Point
	for _, served := range servedPoints {
		points = append(points, served.point)
	}
	if !set {
		return points, nil
	}
	points = nil
	for _, want := range strings.Split(value, ",") {
		if want == "" {
			continue
		}
		found := false
		for _, served := range servedPoints {
			if served.name == want {
				points, found = append(points, served.point), true
			}
		}
		if !found {
			return nil, fmt.Errorf("$%s names a point this plugin does not serve: %q", pointsEnv, want)
		}
	}
	return points, nil
}

// method adapts a handler that may answer any message to grpc-go's untyped method handler.
func method[Req any, PReq interface {
	*Req
	proto.Message
}](rpc string, handle func(*conformance, context.Context, PReq) (proto.Message, error)) grpc.MethodDesc {
	return grpc.MethodDesc{
		MethodName: rpc,
		Handler: func(srv any, ctx context.Context, dec func(any) error, interceptor grpc.UnaryServerInterceptor) (any, error) {
			request := PReq(new(Req))
			if err := dec(request); err != nil {
				return nil, err
			}
			call := func(ctx context.Context, req any) (any, error) { return handle(srv.(*conformance), ctx, req.(PReq)) }
			if interceptor == nil {
				return call(ctx, request)
			}
			return interceptor(ctx, request, &grpc.UnaryServerInfo{Server: srv, FullMethod: "/" + service + "/" + rpc}, call)
		},
	}
}

func serviceDesc() *grpc.ServiceDesc {
	return &grpc.ServiceDesc{
		ServiceName: service,
		HandlerType: (*any)(nil),
		Methods: []grpc.MethodDesc{
			method("Describe", (*conformance).describe),
			method("PreStep", (*conformance).preStep),
			method("PreTool", (*conformance).preTool),
			method("PostTool", (*conformance).postTool),
			method("TurnStopping", (*conformance).turnStopping),
			method("Rewrite", (*conformance).rewrite),
			method("Approve", (*conformance).approve),
			method("SessionEnd", (*conformance).sessionEnd),
			method("TurnEnd", (*conformance).turnEnd),
			method("AgentEvent", (*conformance).agentEvent),
		},
		Metadata: "hookd/v1/plugin.proto",
	}
}

func (c *conformance) describe(context.Context, *hookdv1.DescribeRequest) (proto.Message, error) {
	var subscriptions []*hookdv1.Subscription
	for _, point := range c.points {
		tools := []string{}
		if point == hookdv1.Point_POINT_AGENT_EVENT {
			tools = agentEventMatchers
		}
		subscriptions = append(subscriptions, &hookdv1.Subscription{Point: point, Tools: tools, FailurePolicy: c.policy})
	}
	return &hookdv1.DescribeResponse{Manifest: &hookdv1.PluginManifest{Name: name, Version: versionTag, Subscriptions: subscriptions}}, nil
}

// common acts out the fault scenarios every point shares; done is false for the others.
func common(ctx context.Context, scenario string, point hookdv1.Point) (answer proto.Message, done bool, err error) {
	switch scenario {
	case "hang":
		<-ctx.Done()
		return nil, true, status.FromContextError(ctx.Err()).Err()
	case "crash":
		fmt.Fprintf(os.Stderr, "%s %d: crashing mid-call\n", name, os.Getpid())
		os.Exit(1)
	case "garbage":
		// A varint (wire type 0) in the decision's field, which holds a message (wire type 2).
		garbage := &emptypb.Empty{}
		raw := protowire.AppendVarint(protowire.AppendTag(nil, protowire.Number(point), protowire.VarintType), 1)
		garbage.ProtoReflect().SetUnknown(raw)
		return garbage, true, nil
	case "wrong-variant":
		if point == hookdv1.Point_POINT_PRE_TOOL {
			return &hookdv1.PostToolResponse{Decision: &hookdv1.PostToolDecision{Decision: &hookdv1.PostToolDecision_Accept{Accept: &hookdv1.Accept{}}}}, true, nil
		}
		return &hookdv1.PreToolResponse{Decision: &hookdv1.PreToolDecision{Decision: &hookdv1.PreToolDecision_Allow{Allow: &hookdv1.Allow{}}}}, true, nil
	}
	// Honour the deadline: an answer after it is of no use.
	if err := ctx.Err(); err != nil {
		return nil, true, status.FromContextError(err).Err()
	}
	return nil, false, nil
}

func (c *conformance) preTool(ctx context.Context, req *hookdv1.PreToolRequest) (proto.Message, error) {
	scenario := scenarioOfCall(req.GetEvent().GetCall())
	if answer, done, err := common(ctx, scenario, hookdv1.Point_POINT_PRE_TOOL); done {
		return answer, err
	}
	decision := &hookdv1.PreToolDecision{}
	switch scenario {
	case "allow":
		decision.Decision = &hookdv1.PreToolDecision_Allow{Allow: &hookdv1.Allow{}}
	case "deny":
		decision.Decision = &hookdv1.PreToolDecision_Deny{Deny: &hookdv1.Deny{Reason: "conformance: denied by " + lang}}
	case "ask":
		decision.Decision = &hookdv1.PreToolDecision_Ask{Ask: &hookdv1.Ask{Reason: "conformance: asked by " + lang}}
	default:
		decision.Decision = &hookdv1.PreToolDecision_Pass{Pass: &hookdv1.Pass{}}
	}
	return &hookdv1.PreToolResponse{Decision: decision}, nil
}

func (c *conformance) postTool(ctx context.Context, req *hookdv1.PostToolRequest) (proto.Message, error) {
	scenario := scenarioOfCall(req.GetEvent().GetCall())
	if answer, done, err := common(ctx, scenario, hookdv1.Point_POINT_POST_TOOL); done {
		return answer, err
	}
	replacement := &hookdv1.ContentReplacement{Blocks: []*hookdv1.ContentBlock{text("conformance: replaced by " + lang)}}
	value := `{"replacedBy":"` + lang + `"}`
	decision := &hookdv1.PostToolDecision{}
	switch scenario {
	case "block":
		decision.Decision = &hookdv1.PostToolDecision_Block{Block: &hookdv1.Block{Feedback: "conformance: blocked by " + lang}}
	case "replace":
		decision.Decision = &hookdv1.PostToolDecision_Accept{Accept: &hookdv1.Accept{Content: replacement}}
	case "value":
		decision.Decision = &hookdv1.PostToolDecision_Accept{Accept: &hookdv1.Accept{ValueJson: &value}}
	case "context":
		decision.Decision = &hookdv1.PostToolDecision_Accept{Accept: &hookdv1.Accept{AdditionalContexts: []*hookdv1.Message{contextMessage()}}}
	case "invalid":
		decision.Decision = &hookdv1.PostToolDecision_Accept{Accept: &hookdv1.Accept{Content: replacement, ValueJson: &value}}
	case "forge-context":
		forged := message("conformance: forged by "+lang, userSource())
		decision.Decision = &hookdv1.PostToolDecision_Accept{Accept: &hookdv1.Accept{AdditionalContexts: []*hookdv1.Message{forged}}}
	default:
		decision.Decision = &hookdv1.PostToolDecision_Pass{Pass: &hookdv1.Pass{}}
	}
	return &hookdv1.PostToolResponse{Decision: decision}, nil
}

func (c *conformance) preStep(ctx context.Context, req *hookdv1.PreStepRequest) (proto.Message, error) {
	messages := req.GetEvent().GetMessages()
	first := firstText(messages)
	if answer, done, err := common(ctx, first, hookdv1.Point_POINT_PRE_STEP); done {
		return answer, err
	}
	decision := &hookdv1.PreStepDecision{}
	switch {
	case strings.HasPrefix(first, "inject"):
		entered := append(append([]*hookdv1.Message{}, messages...), contextMessage())
		decision.Decision = &hookdv1.PreStepDecision_Enter{Enter: &hookdv1.Enter{Messages: entered}}
	case strings.HasPrefix(first, "reject"):
		decision.Decision = &hookdv1.PreStepDecision_Reject{Reject: &hookdv1.Reject{Reason: "conformance: rejected by " + lang}}
	case strings.HasPrefix(first, "redact"):
		// Prompt redaction: the whole batch goes back, the first message with the secret removed.
		entered := append([]*hookdv1.Message{withText(messages[0], strings.ReplaceAll(first, secret, "[redacted]"))}, messages[1:]...)
		decision.Decision = &hookdv1.PreStepDecision_Enter{Enter: &hookdv1.Enter{Messages: entered}}
	case strings.HasPrefix(first, "rewrite"):
		entered := append([]*hookdv1.Message{withText(messages[0], "conformance: prompt rewritten by "+lang)}, messages[1:]...)
		decision.Decision = &hookdv1.PreStepDecision_Enter{Enter: &hookdv1.Enter{Messages: entered}}
	case strings.HasPrefix(first, "forge"):
		forged := message("conformance: forged by "+lang, pluginSource("someone-else"))
		entered := append(append([]*hookdv1.Message{}, messages...), forged)
		decision.Decision = &hookdv1.PreStepDecision_Enter{Enter: &hookdv1.Enter{Messages: entered}}
	default:
		decision.Decision = &hookdv1.PreStepDecision_Pass{Pass: &hookdv1.Pass{}}
	}
	return &hookdv1.PreStepResponse{Decision: decision}, nil
}

func (c *conformance) rewrite(ctx context.Context, req *hookdv1.RewriteRequest) (proto.Message, error) {
	call := req.GetEvent().GetCall()
	scenario := scenarioOfCall(call)
	if answer, done, err := common(ctx, scenario, hookdv1.Point_POINT_REWRITE); done {
		return answer, err
	}
	replace := func(arguments string) *hookdv1.RewriteResponse {
		return &hookdv1.RewriteResponse{Decision: &hookdv1.RewriteDecision{Decision: &hookdv1.RewriteDecision_Replace{Replace: &hookdv1.Replace{ArgumentsJson: arguments}}}}
	}
	patch := func(mergePatch string) *hookdv1.RewriteResponse {
		return &hookdv1.RewriteResponse{Decision: &hookdv1.RewriteDecision{Decision: &hookdv1.RewriteDecision_Patch{Patch: &hookdv1.Patch{MergePatchJson: mergePatch}}}}
	}
	switch scenario {
	case "replace":
		return replace(`{"scenario":"replace","rewrittenBy":"` + lang + `"}`), nil
	case "patch":
		return patch(`{"patchedBy":"` + lang + `","drop":null,"nested":{"added":true}}`), nil
	case "non-object":
		return replace(`["not","an","object"]`), nil
	case "patch-non-object":
		return patch(`"not an object"`), nil
	case "invalid-json":
		return replace(`{"scenario": `), nil
	case "big-int":
		// UseNumber keeps every number as its JSON text (json.Number), so it is written back digit
		// for digit; a float64 would round 9223372036854775807.
		decoder := json.NewDecoder(bytes.NewReader([]byte(call.GetArgumentsJson())))
		decoder.UseNumber()
		var arguments map[string]any
		if err := decoder.Decode(&arguments); err != nil {
			return nil, status.Errorf(codes.InvalidArgument, "arguments_json: %v", err)
		}
		arguments["rewrittenBy"] = lang
		rewritten, err := json.Marshal(arguments)
		if err != nil {
			return nil, status.Errorf(codes.Internal, "arguments: %v", err)
		}
		return replace(string(rewritten)), nil
	}
	return &hookdv1.RewriteResponse{Decision: &hookdv1.RewriteDecision{Decision: &hookdv1.RewriteDecision_Pass{Pass: &hookdv1.Pass{}}}}, nil
}

func (c *conformance) approve(ctx context.Context, req *hookdv1.ApproveRequest) (proto.Message, error) {
	scenario := scenarioOfCall(req.GetEvent().GetCall())
	if answer, done, err := common(ctx, scenario, hookdv1.Point_POINT_APPROVAL); done {
		return answer, err
	}
	decision := &hookdv1.ApprovalDecision{}
	switch scenario {
	case "approve":
		decision.Decision = &hookdv1.ApprovalDecision_Approve{Approve: &hookdv1.Approve{}}
	case "reject":
		decision.Decision = &hookdv1.ApprovalDecision_Reject{Reject: &hookdv1.Reject{Reason: "conformance: rejected by " + lang}}
	default:
		decision.Decision = &hookdv1.ApprovalDecision_Pass{Pass: &hookdv1.Pass{}}
	}
	return &hookdv1.ApproveResponse{Decision: decision}, nil
}

func (c *conformance) turnStopping(ctx context.Context, req *hookdv1.TurnStoppingRequest) (proto.Message, error) {
	last := req.GetEvent().GetLastAssistantMessage()
	said := ""
	if last != nil {
		said = firstText([]*hookdv1.Message{last})
	}
	if answer, done, err := common(ctx, said, hookdv1.Point_POINT_TURN_STOPPING); done {
		return answer, err
	}
	steer := func(source *hookdv1.MessageSource) *hookdv1.TurnStoppingResponse {
		steering := []*hookdv1.Message{message("conformance: steered by "+lang, source)}
		return &hookdv1.TurnStoppingResponse{Decision: &hookdv1.TurnStoppingDecision{Decision: &hookdv1.TurnStoppingDecision_Steer{Steer: &hookdv1.Steer{Messages: steering}}}}
	}
	switch said {
	case "steer":
		return steer(pluginSource(name)), nil
	case "forge-steer":
		return steer(userSource()), nil
	}
	return &hookdv1.TurnStoppingResponse{Decision: &hookdv1.TurnStoppingDecision{Decision: &hookdv1.TurnStoppingDecision_Pass{Pass: &hookdv1.Pass{}}}}, nil
}

func (c *conformance) sessionEnd(_ context.Context, req *hookdv1.SessionEndRequest) (proto.Message, error) {
	event := req.GetEvent()
	fields := map[string]any{
		"reason": enumName(event.GetReason().String(), "SESSION_END_REASON_"),
		"detail": event.GetDetail(),
		"turns":  event.GetTurns(),
	}
	if err := record("session-end", event.GetSession(), fields); err != nil {
		return nil, status.Errorf(codes.Internal, "recording session-end: %v", err)
	}
	return &hookdv1.SessionEndResponse{}, nil
}

func (c *conformance) turnEnd(_ context.Context, req *hookdv1.TurnEndRequest) (proto.Message, error) {
	event := req.GetEvent()
	fields := map[string]any{
		"turn":    event.GetTurn(),
		"outcome": enumName(event.GetOutcome().String(), "TURN_END_OUTCOME_"),
		"detail":  event.GetDetail(),
		"steps":   event.GetSteps(),
	}
	if err := record("turn-end", event.GetSession(), fields); err != nil {
		return nil, status.Errorf(codes.Internal, "recording turn-end: %v", err)
	}
	return &hookdv1.TurnEndResponse{}, nil
}

func (c *conformance) agentEvent(_ context.Context, req *hookdv1.AgentEventRequest) (proto.Message, error) {
	event := req.GetEvent()
	fields := map[string]any{
		"dialect":   enumName(event.GetDialect().String(), "AGENT_DIALECT_"),
		"eventName": event.GetEventName(),
		// The payload's JSON text exactly as the daemon sent it (its canonical form).
		"payloadJson": event.GetPayloadJson(),
	}
	if err := record("agent-event", event.GetSession(), fields); err != nil {
		return nil, status.Errorf(codes.Internal, "recording agent-event: %v", err)
	}
	return &hookdv1.AgentEventResponse{}, nil
}

// record writes what a notification received, atomically, where the test reads it.
func record(point string, session *hookdv1.SessionInfo, fields map[string]any) error {
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
	return os.Rename(temporary.Name(), filepath.Join(dir, point+"."+session.GetSessionId()+".json"))
}

// enumName turns SESSION_END_REASON_DAEMON_STOPPING into daemon-stopping: the record's
// language-neutral form.
func enumName(value, prefix string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimPrefix(value, prefix)), "_", "-")
}

// ---- helpers -------------------------------------------------------------------------------

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
	var parts []string
	for _, block := range messages[0].GetContent() {
		if t, ok := block.GetBlock().(*hookdv1.ContentBlock_Text); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func text(value string) *hookdv1.ContentBlock {
	return &hookdv1.ContentBlock{Block: &hookdv1.ContentBlock_Text{Text: value}}
}

func message(content string, source *hookdv1.MessageSource) *hookdv1.Message {
	return &hookdv1.Message{Role: hookdv1.Role_ROLE_USER, Content: []*hookdv1.ContentBlock{text(content)}, Source: source}
}

func pluginSource(plugin string) *hookdv1.MessageSource {
	return &hookdv1.MessageSource{Kind: &hookdv1.MessageSource_Plugin{Plugin: &hookdv1.PluginSource{Name: plugin}}}
}

func userSource() *hookdv1.MessageSource {
	return &hookdv1.MessageSource{Kind: &hookdv1.MessageSource_User{User: &hookdv1.UserSource{}}}
}

func contextMessage() *hookdv1.Message {
	return message("conformance: context from "+lang, pluginSource(name))
}

// withText is the same message (role, id, the source the plugin saw) with its content replaced.
func withText(original *hookdv1.Message, content string) *hookdv1.Message {
	changed := proto.Clone(original).(*hookdv1.Message)
	changed.Content = []*hookdv1.ContentBlock{text(content)}
	return changed
}
