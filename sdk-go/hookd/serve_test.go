package hookd_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
	"github.com/hookd-dev/hookd/sdk-go/hookdtest"
)

// scenarios answers pre-tool by the tool name; post-tool redacts; rewrite re-emits its arguments.
func scenarios(t *testing.T) *hookd.Plugin {
	return &hookd.Plugin{
		Name: "scenarios",
		PreTool: func(ctx context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
			switch ev.GetCall().GetToolName() {
			case "deny":
				return hookd.PreTool.Deny("denied"), nil
			case "ask":
				return hookd.PreTool.Ask("may I?"), nil
			case "allow":
				return hookd.PreTool.Allow(), nil
			case "error":
				return nil, errors.New("disk on fire")
			case "status":
				return nil, status.Error(codes.PermissionDenied, "no access")
			case "panic":
				panic("boom")
			case "nil":
				return nil, nil
			case "empty":
				return &hookdv1.PreToolDecision{}, nil
			case "deadline":
				if _, ok := ctx.Deadline(); !ok {
					return hookd.PreTool.Deny("no deadline reached the handler"), nil
				}
				info, _ := hookd.CallInfoFrom(ctx)
				return hookd.PreTool.Deny("deadline over " + info.Transport + " at " + hookd.PointName(info.Point)), nil
			}
			return hookd.PreTool.Pass(), nil
		},
		PostTool: func(_ context.Context, ev *hookdv1.PostToolEvent) (*hookdv1.PostToolDecision, error) {
			text := ev.GetResult().GetSuccess().GetContent()[0].GetText()
			return hookd.PostTool.ReplaceContent(hookd.Text(strings.ReplaceAll(text, "hunter2", "[redacted]"))), nil
		},
		Rewrite: func(_ context.Context, ev *hookdv1.RewriteEvent) (*hookdv1.RewriteDecision, error) {
			args, err := hookd.Arguments(ev.GetCall())
			if err != nil {
				return nil, status.Error(codes.InvalidArgument, err.Error())
			}
			args["rewritten"] = true
			text, err := hookd.EncodeJSON(args)
			return hookd.Rewrite.Replace(text), err
		},
		ToolResult: func(_ context.Context, ev *hookdv1.ToolResultEvent) error {
			if ev.GetCall().GetToolName() == "fail" {
				return errors.New("could not record")
			}
			return nil
		},
	}
}

var transports = []struct {
	name    string
	options []hookdtest.Option
}{{"unary", nil}, {"stream", []hookdtest.Option{hookdtest.OverStream()}}}

func TestDecisionsOverBothTransports(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport.name, func(t *testing.T) {
			var mu sync.Mutex
			var failures []string
			plugin := scenarios(t)
			client := hookdtest.Start(t, plugin, append(transport.options, hookdtest.WithServeOptions(hookd.WithErrorHandler(func(point hookdv1.Point, err error) {
				mu.Lock()
				defer mu.Unlock()
				failures = append(failures, hookd.PointName(point))
			})))...)
			for _, tc := range []struct{ tool, kind, reason string }{
				{"deny", "deny", "denied"}, {"ask", "ask", "may I?"}, {"allow", "allow", ""}, {"other", "pass", ""},
			} {
				d, err := client.PreTool(t.Context(), hookdtest.PreToolEvent(hookdtest.ToolCall(tc.tool, "{}")))
				if err != nil {
					t.Fatalf("%s: %v", tc.tool, err)
				}
				if hookdtest.Kind(d) != tc.kind || d.GetDeny().GetReason()+d.GetAsk().GetReason() != tc.reason {
					t.Errorf("%s: decision = %v, want %s %q", tc.tool, d, tc.kind, tc.reason)
				}
			}

			result := hookdtest.Success(`"password: hunter2"`, "password: hunter2")
			d, err := client.PostTool(t.Context(), hookdtest.PostToolEvent(hookdtest.ToolCall("cat", "{}"), result))
			if err != nil {
				t.Fatal(err)
			}
			if got := d.GetAccept().GetContent().GetBlocks()[0].GetText(); got != "password: [redacted]" {
				t.Errorf("post-tool content = %q", got)
			}

			r, err := client.Rewrite(t.Context(), hookdtest.RewriteEvent(hookdtest.ToolCall("x", `{"n":9223372036854775807}`)))
			if err != nil {
				t.Fatal(err)
			}
			if got := r.GetReplace().GetArgumentsJson(); got != `{"n":9223372036854775807,"rewritten":true}` {
				t.Errorf("rewrite = %s", got)
			}

			if err := client.ToolResult(t.Context(), hookdtest.ToolResultEvent(hookdtest.ToolCall("ok", "{}"), result)); err != nil {
				t.Errorf("tool-result: %v", err)
			}
			err = client.ToolResult(t.Context(), hookdtest.ToolResultEvent(hookdtest.ToolCall("fail", "{}"), result))
			if status.Code(err) != codes.Unknown || !strings.Contains(err.Error(), "plugin scenarios at tool-result failed: could not record") {
				t.Errorf("tool-result failure: %v", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(failures) != 1 || failures[0] != "tool-result" {
				t.Errorf("error handler saw %v", failures)
			}
		})
	}
}

func TestFailuresBecomeStatuses(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport.name, func(t *testing.T) {
			client := hookdtest.Start(t, scenarios(t), append(transport.options, hookdtest.WithServeOptions(hookd.WithErrorHandler(func(hookdv1.Point, error) {})))...)
			for _, tc := range []struct {
				tool string
				code codes.Code
				want string
			}{
				{"error", codes.Unknown, "plugin scenarios at pre-tool failed: disk on fire"},
				{"status", codes.PermissionDenied, "no access"},
				{"panic", codes.Unknown, "plugin scenarios at pre-tool panicked: boom"},
				{"nil", codes.Unknown, "plugin scenarios at pre-tool returned no decision"},
				{"empty", codes.Unknown, "plugin scenarios at pre-tool returned a PreToolDecision with no decision set"},
			} {
				d, err := client.PreTool(t.Context(), hookdtest.PreToolEvent(hookdtest.ToolCall(tc.tool, "{}")))
				if status.Code(err) != tc.code || !strings.Contains(status.Convert(err).Message(), tc.want) {
					t.Errorf("%s: decision %v, err %v; want %v containing %q", tc.tool, d, err, tc.code, tc.want)
				}
			}
			_, err := client.PreStep(t.Context(), hookdtest.PreStepEvent(hookdtest.Prompt("m1", "hi")))
			if status.Code(err) != codes.Unimplemented || !strings.Contains(err.Error(), "plugin scenarios does not handle pre-step") {
				t.Errorf("unhandled point: %v", err)
			}
		})
	}
}

func TestDeadlineReachesTheHandler(t *testing.T) {
	for _, transport := range transports {
		t.Run(transport.name, func(t *testing.T) {
			client := hookdtest.Start(t, scenarios(t), transport.options...)
			ctx, cancel := context.WithTimeout(t.Context(), 60_000_000_000)
			defer cancel()
			d, err := client.PreTool(ctx, hookdtest.PreToolEvent(hookdtest.ToolCall("deadline", "{}")))
			if err != nil {
				t.Fatal(err)
			}
			if want := "deadline over " + transport.name + " at pre-tool"; d.GetDeny().GetReason() != want {
				t.Fatalf("reason = %q, want %q", d.GetDeny().GetReason(), want)
			}
		})
	}
}

func TestHealthServesTheNamesTheDaemonChecks(t *testing.T) {
	client := hookdtest.Start(t, scenarios(t))
	health := healthpb.NewHealthClient(client.Conn())
	for _, service := range []string{"", hookd.HealthService} {
		resp, err := health.Check(t.Context(), &healthpb.HealthCheckRequest{Service: service})
		if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
			t.Errorf("health %q: %v %v", service, resp, err)
		}
	}
	if m := client.Manifest(); m.GetName() != "scenarios" || len(m.GetSubscriptions()) != 4 {
		t.Errorf("manifest = %v", m)
	}
}
