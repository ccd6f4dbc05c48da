package hookd_test

import (
	"context"
	"testing"

	"google.golang.org/protobuf/proto"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// Every point's name comes from the (hookd.v1.point) option the proto declares on its Point value
// (point_options.proto), so the SDK names every point of the contract as the daemon does.
func TestPointNamesComeFromTheProto(t *testing.T) {
	values := hookdv1.Point(0).Descriptor().Values()
	for i := 1; i < values.Len(); i++ {
		value := values.Get(i)
		facts, _ := proto.GetExtension(value.Options(), hookdv1.E_Point).(*hookdv1.PointFacts)
		if facts.GetName() == "" {
			t.Fatalf("%s: no (hookd.v1.point) option", value.Name())
		}
		if got := hookd.PointName(hookdv1.Point(value.Number())); got != facts.GetName() {
			t.Errorf("PointName(%s) = %q, the proto declares %q", value.Name(), got, facts.GetName())
		}
	}
	if got := hookd.PointName(hookdv1.Point_POINT_APPROVAL); got != "approval" {
		t.Errorf("PointName(POINT_APPROVAL) = %q, want the daemon's name approval", got)
	}
	if got := hookd.PointName(hookdv1.Point(99)); got != "99" {
		t.Errorf("PointName(99) = %q, want the enum's own name for a point this SDK does not know", got)
	}
}

// Matchers are taken exactly where the proto's option says the point matches a name.
func TestMatchersFollowTheProto(t *testing.T) {
	tools := []string{"x"}
	cases := []struct {
		plugin *hookd.Plugin
		point  hookdv1.Point
	}{
		{&hookd.Plugin{Name: "p", ToolResult: func(_ context.Context, _ *hookdv1.ToolResultEvent) error { return nil }}, hookdv1.Point_POINT_TOOL_RESULT},
		{&hookd.Plugin{Name: "p", AgentEvent: func(_ context.Context, _ *hookdv1.AgentEventEvent) error { return nil }}, hookdv1.Point_POINT_AGENT_EVENT},
		{&hookd.Plugin{Name: "p", TurnEnd: func(_ context.Context, _ *hookdv1.TurnEndEvent) error { return nil }}, hookdv1.Point_POINT_TURN_END},
		{&hookd.Plugin{Name: "p", SessionEnd: func(_ context.Context, _ *hookdv1.SessionEndEvent) error { return nil }}, hookdv1.Point_POINT_SESSION_END},
	}
	for _, c := range cases {
		facts, _ := proto.GetExtension(c.point.Descriptor().Values().ByNumber(c.point.Number()).Options(), hookdv1.E_Point).(*hookdv1.PointFacts)
		c.plugin.Options = map[hookdv1.Point]hookd.Subscription{c.point: {Tools: tools}}
		_, err := c.plugin.Manifest()
		matched := facts.GetMatch() != hookdv1.PointMatch_POINT_MATCH_NONE
		if (err == nil) != matched {
			t.Errorf("%s with matchers: error %v, but the proto's match is %s", c.point, err, facts.GetMatch())
		}
	}
}
