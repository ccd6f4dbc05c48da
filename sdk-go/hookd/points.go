package hookd

import hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"

// pointNames are the daemon's names of the points (its config keys and log fields).
var pointNames = map[hookdv1.Point]string{
	hookdv1.Point_POINT_SESSION_START: "session-start",
	hookdv1.Point_POINT_PRE_STEP:      "pre-step",
	hookdv1.Point_POINT_PRE_TOOL:      "pre-tool",
	hookdv1.Point_POINT_GUARD:         "guard",
	hookdv1.Point_POINT_EXECUTE:       "execute",
	hookdv1.Point_POINT_POST_TOOL:     "post-tool",
	hookdv1.Point_POINT_TOOL_RESULT:   "tool-result",
	hookdv1.Point_POINT_TURN_STOPPING: "turn-stopping",
	hookdv1.Point_POINT_REWRITE:       "rewrite",
	hookdv1.Point_POINT_APPROVAL:      "approval",
	hookdv1.Point_POINT_SESSION_END:   "session-end",
	hookdv1.Point_POINT_TURN_END:      "turn-end",
	hookdv1.Point_POINT_AGENT_EVENT:   "agent-event",
}

// matchedPoints are the points whose subscriptions may carry name matchers (Subscription.Tools):
// the tool points match the tool name, agent-event the agent's event name.
var matchedPoints = map[hookdv1.Point]bool{
	hookdv1.Point_POINT_REWRITE:     true,
	hookdv1.Point_POINT_PRE_TOOL:    true,
	hookdv1.Point_POINT_APPROVAL:    true,
	hookdv1.Point_POINT_GUARD:       true,
	hookdv1.Point_POINT_EXECUTE:     true,
	hookdv1.Point_POINT_POST_TOOL:   true,
	hookdv1.Point_POINT_TOOL_RESULT: true,
	hookdv1.Point_POINT_AGENT_EVENT: true,
}

// PointName is the daemon's name of point ("pre-tool"), or its enum name when it has none.
func PointName(point hookdv1.Point) string {
	if name, ok := pointNames[point]; ok {
		return name
	}
	return point.String()
}
