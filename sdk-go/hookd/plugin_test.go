package hookd_test

import (
	"context"
	"strings"
	"testing"
	"time"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

func passPreTool(context.Context, *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
	return hookd.PreTool.Pass(), nil
}

func TestManifestIsDerivedFromTheHandlers(t *testing.T) {
	plugin := &hookd.Plugin{
		Name:           "derived",
		SideEffectFree: true,
		Transport:      hookd.TransportUnary,
		PreTool:        passPreTool,
		SessionEnd:     func(context.Context, *hookdv1.SessionEndEvent) error { return nil },
		Options: map[hookdv1.Point]hookd.Subscription{
			hookdv1.Point_POINT_PRE_TOOL: {Tools: []string{"Bash", "mcp__*"}, Priority: -3, Deadline: 250 * time.Millisecond, FailurePolicy: hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_OPEN},
		},
	}
	m, err := plugin.Manifest()
	if err != nil {
		t.Fatal(err)
	}
	if m.GetName() != "derived" || m.GetVersion() != "0.0.0" || !m.GetSideEffectFree() || m.GetTransport() != hookdv1.PluginTransport_PLUGIN_TRANSPORT_UNARY {
		t.Fatalf("manifest = %v", m)
	}
	subs := m.GetSubscriptions()
	if len(subs) != 2 || subs[0].GetPoint() != hookdv1.Point_POINT_PRE_TOOL || subs[1].GetPoint() != hookdv1.Point_POINT_SESSION_END {
		t.Fatalf("subscriptions = %v", subs)
	}
	pre := subs[0]
	if strings.Join(pre.GetTools(), ",") != "Bash,mcp__*" || pre.GetPriority() != -3 || pre.GetDeadlineMs() != 250 || pre.GetFailurePolicy() != hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_OPEN {
		t.Fatalf("pre-tool subscription = %v", pre)
	}
	if end := subs[1]; len(end.GetTools()) != 0 || end.GetDeadlineMs() != 0 || end.GetFailurePolicy() != hookdv1.FailurePolicy_FAILURE_POLICY_UNSPECIFIED {
		t.Fatalf("session-end subscription = %v", end)
	}
}

func TestManifestRefusesInvalidPlugins(t *testing.T) {
	for _, tc := range []struct {
		name   string
		plugin *hookd.Plugin
		want   string
	}{
		{"empty", &hookd.Plugin{Name: "empty"}, "empty: a plugin must handle at least one point (set a handler such as PreTool)"},
		{"bad name", &hookd.Plugin{Name: "-x", PreTool: passPreTool}, `plugin: Name: expected letters, digits, '.', '_' or '-' (starting with a letter or digit), got "-x"`},
		{"options without handler", &hookd.Plugin{Name: "p", PreTool: passPreTool, Options: map[hookdv1.Point]hookd.Subscription{hookdv1.Point_POINT_PRE_STEP: {}}}, "p: Options[pre-step]: no handler for this point"},
		{"tools on pre-step", &hookd.Plugin{Name: "p", PreStep: func(context.Context, *hookdv1.PreStepEvent) (*hookdv1.PreStepDecision, error) {
			return hookd.PreStep.Pass(), nil
		}, Options: map[hookdv1.Point]hookd.Subscription{hookdv1.Point_POINT_PRE_STEP: {Tools: []string{"x"}}}}, "p: Options[pre-step].Tools: matchers apply only to tool points and agent-event"},
		{"sub-millisecond deadline", &hookd.Plugin{Name: "p", PreTool: passPreTool, Options: map[hookdv1.Point]hookd.Subscription{hookdv1.Point_POINT_PRE_TOOL: {Deadline: 1500 * time.Microsecond}}}, "p: Options[pre-tool].Deadline: expected whole milliseconds, 0 or more, got 1.5ms"},
		{"unknown policy", &hookd.Plugin{Name: "p", PreTool: passPreTool, Options: map[hookdv1.Point]hookd.Subscription{hookdv1.Point_POINT_PRE_TOOL: {FailurePolicy: 7}}}, "p: Options[pre-tool].FailurePolicy: unknown FailurePolicy 7"},
		{"unknown transport", &hookd.Plugin{Name: "p", PreTool: passPreTool, Transport: 9}, "p: Transport: unknown PluginTransport 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.plugin.Manifest()
			if err == nil || err.Error() != tc.want {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			// Serve refuses the same plugin before it listens.
			if err := hookd.Serve(t.Context(), tc.plugin, hookd.WithAddress("unix:/nonexistent/dir/x.sock")); err == nil || err.Error() != tc.want {
				t.Fatalf("Serve: err = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestLosslessJSON(t *testing.T) {
	call := &hookdv1.ToolCall{ArgumentsJson: `{"big":9223372036854775807,"neg":-9223372036854775808,"f":0.1,"s":"<&>"}`}
	args, err := hookd.Arguments(call)
	if err != nil {
		t.Fatal(err)
	}
	args["added"] = true
	text, err := hookd.EncodeJSON(args)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"added":true,"big":9223372036854775807,"f":0.1,"neg":-9223372036854775808,"s":"<&>"}`
	if text != want {
		t.Fatalf("re-encoded = %s, want %s", text, want)
	}
	for _, bad := range []string{`[1]`, `{"a":1} {}`, `{`, `null`} {
		if _, err := hookd.Arguments(&hookdv1.ToolCall{ArgumentsJson: bad}); err == nil {
			t.Errorf("Arguments(%s): no error", bad)
		}
	}
}
