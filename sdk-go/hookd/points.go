// The point facts the Go SDK needs (each point's name and whether it takes matchers), read once
// from the (hookd.v1.point) option the proto declares on every Point value (point_options.proto),
// so a new point's facts come from the proto and are never restated here.
package hookd

import (
	"google.golang.org/protobuf/proto"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// pointFacts holds the declared facts of every Point value but POINT_UNSPECIFIED.
var pointFacts = readPointFacts()

func readPointFacts() map[hookdv1.Point]*hookdv1.PointFacts {
	values := hookdv1.Point(0).Descriptor().Values()
	facts := make(map[hookdv1.Point]*hookdv1.PointFacts, values.Len())
	for i := range values.Len() {
		value := values.Get(i)
		declared, _ := proto.GetExtension(value.Options(), hookdv1.E_Point).(*hookdv1.PointFacts)
		if declared.GetName() != "" {
			facts[hookdv1.Point(value.Number())] = declared
		}
	}
	return facts
}

// takesMatchers reports whether point's subscriptions may carry name matchers (Subscription.Tools):
// the tool points match the tool name, agent-event the agent's event name.
func takesMatchers(point hookdv1.Point) bool {
	match := pointFacts[point].GetMatch()
	return match != hookdv1.PointMatch_POINT_MATCH_UNSPECIFIED && match != hookdv1.PointMatch_POINT_MATCH_NONE
}

// PointName is the daemon's name of point ("pre-tool"), or its enum name when it has none.
func PointName(point hookdv1.Point) string {
	if facts, ok := pointFacts[point]; ok {
		return facts.GetName()
	}
	return point.String()
}
