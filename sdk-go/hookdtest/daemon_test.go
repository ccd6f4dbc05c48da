package hookdtest_test

import (
	"context"
	"testing"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
	"github.com/hookd-dev/hookd/sdk-go/hookdtest"
)

// A remote plugin served by the test, whose manifest asks for unary, under a real daemon: the
// daemon's decision and trace come from the plugin's answers, over the transport it asked for.
func TestStartDaemonWithARemotePlugin(t *testing.T) {
	plugin := &hookd.Plugin{
		Name:      "remote-unary",
		Transport: hookd.TransportUnary,
		PreTool: func(_ context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
			if ev.GetCall().GetToolName() == "Write" {
				return hookd.PreTool.Deny("read-only session"), nil
			}
			return hookd.PreTool.Pass(), nil
		},
		Options: map[hookdv1.Point]hookd.Subscription{hookdv1.Point_POINT_PRE_TOOL: {Tools: []string{"Write", "Bash"}}},
	}
	daemon := hookdtest.StartDaemon(t, hookdtest.Remote(plugin))

	answer, err := daemon.PreTool(t.Context(), "remote-1", hookdtest.ToolCall("Write", `{"path":"/etc/passwd"}`))
	if err != nil {
		t.Fatal(err)
	}
	if answer.GetDecision().GetDeny().GetReason() != "read-only session" || answer.GetTrace().GetDecidedBy() != "remote-unary" {
		t.Fatalf("Write: %v", answer)
	}
	// Read is not matched by the subscription: the plugin is never called, the default allows.
	answer, err = daemon.PreTool(t.Context(), "remote-2", hookdtest.ToolCall("Read", `{"path":"/etc/passwd"}`))
	if err != nil {
		t.Fatal(err)
	}
	if hookdtest.Kind(answer.GetDecision()) != "allow" || answer.GetTrace().GetDecidedBy() != "default" {
		t.Fatalf("Read: %v", answer)
	}
	list, err := daemon.Admin.ListPlugins(t.Context(), &hookdv1.ListPluginsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if p := list.GetPlugins()[0]; p.GetTransport() != "unary" || p.GetKind() != "remote" || p.GetCalls() != 1 {
		t.Fatalf("plugin status: %v", p)
	}
}
