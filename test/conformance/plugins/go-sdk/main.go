// Command conformance-plugin is the hookd conformance plugin written with the Go SDK
// (conformance-go, SDK flavour). It behaves exactly like the raw-stub Go plugin (../go) and the TypeScript
// and Python ones, so one scenario table (test/conformance/suite.ts) runs against all
// of them through a real daemon, here over both transports: the Attach stream (the SDK's default)
// and unary ($HOOKD_CONFORMANCE_TRANSPORT=unary makes the manifest ask for it).
//
// The scenarios are the raw plugin's (see ../go/main.go): the scenario is read from the tool
// call's "scenario" argument, the first message's text at pre-step, the last assistant message's
// text at turn-stopping. Every answer a valid hookdv1 decision can express is returned by the
// SDK's handlers, including the invalid combinations the daemon must refuse (Accept with both
// content and value_json, a rewrite to a non-object or to invalid JSON). The two answers no
// decision can express, "garbage" (bytes that do not parse) and "wrong-variant" (another point's
// response), are sent by gRPC interceptors given to the SDK with hookd.WithGRPCOptions: the unary
// interceptor answers them instead of the handler; the stream interceptor answers their call
// frames itself, on the same Attach stream, and never hands those frames to the SDK.
//
// Usage: conformance-plugin [--listen unix:PATH|HOST:PORT]; without --listen it serves on the
// Unix socket named by $HOOKD_PLUGIN_SOCKET.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"google.golang.org/grpc"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

const (
	lang       = "go" // named as the raw-stub Go plugin: two flavours of one language answer identically
	name       = "conformance-" + lang
	policyEnv  = "HOOKD_CONFORMANCE_FAILURE_POLICY"
	pointsEnv  = "HOOKD_CONFORMANCE_POINTS"
	recordsEnv = "HOOKD_CONFORMANCE_RECORDS"
	unreachEnv = "HOOKD_CONFORMANCE_UNREACHABLE"
	transEnv   = "HOOKD_CONFORMANCE_TRANSPORT"
	secret     = "SECRET-1234"
)

func main() {
	listen := flag.String("listen", "", "address to serve on, unix:PATH or HOST:PORT (default: unix socket from $"+hookd.SocketEnv+")")
	flag.Parse()
	if os.Getenv(unreachEnv) != "" {
		fmt.Fprintf(os.Stderr, "%s %d: $%s is set: exiting before serving\n", name, os.Getpid(), unreachEnv)
		os.Exit(3)
	}
	plugin, err := conformancePlugin()
	if err != nil {
		fmt.Fprintln(os.Stderr, name+":", err)
		os.Exit(1)
	}
	hookd.Main(plugin, hookd.WithAddress(*listen), hookd.WithGRPCOptions(
		grpc.ChainUnaryInterceptor(rawUnaryAnswers),
		grpc.ChainStreamInterceptor(rawAttachAnswers),
	))
}

// conformancePlugin subscribes the points $HOOKD_CONFORMANCE_POINTS names (all it serves when
// unset), every one with the failure policy of $HOOKD_CONFORMANCE_FAILURE_POLICY.
func conformancePlugin() (*hookd.Plugin, error) {
	policy := hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_CLOSED
	switch value := os.Getenv(policyEnv); value {
	case "", "fail-closed":
	case "fail-open":
		policy = hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_OPEN
	default:
		return nil, fmt.Errorf("$%s must be fail-closed or fail-open, got %q", policyEnv, value)
	}
	all := &hookd.Plugin{
		PreStep: preStep, Rewrite: rewrite, PreTool: preTool, Approval: approval, PostTool: postTool,
		TurnStopping: turnStopping, TurnEnd: turnEnd, SessionEnd: sessionEnd, AgentEvent: agentEvent,
	}
	plugin := &hookd.Plugin{Name: name, Version: "1.0.0", Options: map[hookdv1.Point]hookd.Subscription{}}
	if os.Getenv(transEnv) == "unary" {
		plugin.Transport = hookd.TransportUnary
	}
	wanted, set := os.LookupEnv(pointsEnv)
	if !set {
		wanted = "pre-step,rewrite,pre-tool,approval,post-tool,turn-stopping,turn-end,session-end,agent-event"
	}
	for _, point := range strings.Split(wanted, ",") {
		var p hookdv1.Point
		switch point {
		case "":
			continue
		case "pre-step":
			p, plugin.PreStep = hookdv1.Point_POINT_PRE_STEP, all.PreStep
		case "rewrite":
			p, plugin.Rewrite = hookdv1.Point_POINT_REWRITE, all.Rewrite
		case "pre-tool":
			p, plugin.PreTool = hookdv1.Point_POINT_PRE_TOOL, all.PreTool
		case "approval":
			p, plugin.Approval = hookdv1.Point_POINT_APPROVAL, all.Approval
		case "post-tool":
			p, plugin.PostTool = hookdv1.Point_POINT_POST_TOOL, all.PostTool
		case "turn-stopping":
			p, plugin.TurnStopping = hookdv1.Point_POINT_TURN_STOPPING, all.TurnStopping
		case "turn-end":
			p, plugin.TurnEnd = hookdv1.Point_POINT_TURN_END, all.TurnEnd
		case "session-end":
			p, plugin.SessionEnd = hookdv1.Point_POINT_SESSION_END, all.SessionEnd
		case "agent-event":
			p, plugin.AgentEvent = hookdv1.Point_POINT_AGENT_EVENT, all.AgentEvent
		default:
			return nil, fmt.Errorf("$%s names a point this plugin does not serve: %q", pointsEnv, point)
		}
		options := hookd.Subscription{FailurePolicy: policy}
		if p == hookdv1.Point_POINT_AGENT_EVENT {
			options.Tools = []string{"Conformance*"}
		}
		plugin.Options[p] = options
	}
	return plugin, nil
}
