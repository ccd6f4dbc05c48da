// Command conformance-plugin is the hookd conformance plugin in Go (conformance-go). It behaves
// exactly like the TypeScript and Python conformance plugins, so one scenario table
// (test/conformance/conformance.test.ts) runs against all three through a real daemon.
//
// The scenario is read from the event: at pre-tool and post-tool from the tool call's arguments
// field "scenario"; at pre-step from the text of the first message ("inject…" and "reject…" match
// by prefix). Scenarios at every subscribed point:
//
//	pass           answer Pass
//	hang           never answer; wait until the call is cancelled (deadline or caller)
//	crash          the process exits abruptly in the middle of the call (os.Exit(1))
//	garbage        answer bytes that do not parse: a varint where the decision message belongs
//	wrong-variant  answer another point's response (pre-tool: a PostToolResponse; others: a
//	               PreToolResponse)
//
// pre-tool: allow, deny, ask. post-tool: block, replace (content), value (canonical value),
// context (additional context), invalid (Accept with BOTH content and value_json). pre-step:
// inject… (enter the same messages plus one context message), reject…. Anything else passes.
//
// The HookPlugin service is registered by hand (a grpc.ServiceDesc whose handlers return any
// proto.Message), so a handler can answer another RPC's response, or an emptypb.Empty whose
// unknown fields carry the garbage bytes verbatim. Health reports SERVING for "" and
// hookd.v1.HookPlugin. The manifest's failure policy is fail-closed unless
// $HOOKD_CONFORMANCE_FAILURE_POLICY says "fail-open" (the daemon's config may override it).
//
// Usage: conformance-plugin [--listen unix:PATH|HOST:PORT]; without --listen it serves on the
// Unix socket named by $HOOKD_PLUGIN_SOCKET.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"net"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	hookdv1 "example.com/hookd/hooks-examples/go/gen/hookd/v1"
)

const (
	lang       = "go"
	name       = "conformance-" + lang
	service    = "hookd.v1.HookPlugin"
	socketEnv  = "HOOKD_PLUGIN_SOCKET"
	policyEnv  = "HOOKD_CONFORMANCE_FAILURE_POLICY"
	stopGrace  = 2 * time.Second
	versionTag = "1.0.0"
)

func main() {
	listen := flag.String("listen", "", "address to serve on, unix:PATH or HOST:PORT (default: unix socket from $"+socketEnv+")")
	flag.Parse()
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
	srv.RegisterService(serviceDesc(), &conformance{policy: policy})

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
		},
		Metadata: "hookd/v1/plugin.proto",
	}
}

func (c *conformance) describe(context.Context, *hookdv1.DescribeRequest) (proto.Message, error) {
	var subscriptions []*hookdv1.Subscription
	for _, point := range []hookdv1.Point{hookdv1.Point_POINT_PRE_STEP, hookdv1.Point_POINT_PRE_TOOL, hookdv1.Point_POINT_POST_TOOL} {
		subscriptions = append(subscriptions, &hookdv1.Subscription{Point: point, Tools: []string{}, FailurePolicy: c.policy})
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
	default:
		decision.Decision = &hookdv1.PreStepDecision_Pass{Pass: &hookdv1.Pass{}}
	}
	return &hookdv1.PreStepResponse{Decision: decision}, nil
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

func contextMessage() *hookdv1.Message {
	return &hookdv1.Message{
		Role:    hookdv1.Role_ROLE_USER,
		Content: []*hookdv1.ContentBlock{text("conformance: context from " + lang)},
		Source:  &hookdv1.MessageSource{Kind: &hookdv1.MessageSource_Plugin{Plugin: &hookdv1.PluginSource{Name: name}}},
	}
}
