package hookd

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"time"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// Plugin is a hookd plugin: who it is and one handler per point it handles. Set only the handlers
// of the points the plugin subscribes to; the manifest lists exactly those.
//
// Waterfall and gate handlers return their point's decision (built with the constructors of this
// package: PreTool.Deny, Rewrite.Patch, ...); returning the point's Pass defers to the next plugin.
// Observer handlers (ToolResult, SessionEnd, TurnEnd, AgentEvent) return only an error. Every
// handler may run concurrently with others and with itself.
type Plugin struct {
	// Name is the manifest's name: letters, digits, '.', '_' or '-', starting with a letter or digit.
	Name string
	// Version is the manifest's version; empty gives "0.0.0".
	Version string
	// SideEffectFree declares that answers depend only on the event and the plugin has no side
	// effects, so the daemon may call it concurrently with its neighbours at a waterfall point.
	SideEffectFree bool
	// Transport is the transport the manifest asks the daemon for; both are always served.
	Transport Transport
	// Options holds per-point subscription options, keyed by point; a point without an entry
	// takes the defaults. An entry for a point without a handler is refused.
	Options map[hookdv1.Point]Subscription

	SessionStart func(context.Context, *hookdv1.SessionStartEvent) (*hookdv1.SessionStartDecision, error)
	PreStep      func(context.Context, *hookdv1.PreStepEvent) (*hookdv1.PreStepDecision, error)
	PreTool      func(context.Context, *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error)
	Guard        func(context.Context, *hookdv1.GuardEvent) (*hookdv1.GuardDecision, error)
	Execute      func(context.Context, *hookdv1.ExecuteEvent) (*hookdv1.ExecuteDecision, error)
	PostTool     func(context.Context, *hookdv1.PostToolEvent) (*hookdv1.PostToolDecision, error)
	TurnStopping func(context.Context, *hookdv1.TurnStoppingEvent) (*hookdv1.TurnStoppingDecision, error)
	Rewrite      func(context.Context, *hookdv1.RewriteEvent) (*hookdv1.RewriteDecision, error)
	Approval     func(context.Context, *hookdv1.ApprovalEvent) (*hookdv1.ApprovalDecision, error)
	ToolResult   func(context.Context, *hookdv1.ToolResultEvent) error
	SessionEnd   func(context.Context, *hookdv1.SessionEndEvent) error
	TurnEnd      func(context.Context, *hookdv1.TurnEndEvent) error
	AgentEvent   func(context.Context, *hookdv1.AgentEventEvent) error
}

// Subscription holds the options of one point's subscription.
type Subscription struct {
	// Tools are whole-name globs ('*' any run, '?' one character): of the tool name at tool
	// points, of the agent's event name at agent-event; refused at other points. Empty matches all.
	Tools []string
	// Priority orders the point's plugins: lower runs outermost; ties go by plugin name.
	Priority int32
	// Deadline for one call, in whole milliseconds; 0 takes the daemon's default.
	Deadline time.Duration
	// FailurePolicy applies when a call fails; unspecified takes the point's default (fail-closed
	// for gates, fail-open otherwise).
	FailurePolicy hookdv1.FailurePolicy
}

// Transport is the transport a plugin's manifest asks the daemon to call it over.
type Transport = hookdv1.PluginTransport

const (
	// TransportDefault lets the daemon use the Attach stream.
	TransportDefault Transport = hookdv1.PluginTransport_PLUGIN_TRANSPORT_UNSPECIFIED
	// TransportUnary makes the daemon call one unary RPC per event.
	TransportUnary Transport = hookdv1.PluginTransport_PLUGIN_TRANSPORT_UNARY
	// TransportStream asks for the Attach stream explicitly.
	TransportStream Transport = hookdv1.PluginTransport_PLUGIN_TRANSPORT_STREAM
)

var pluginName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]*$`)

// handled reports, in Point order, which points have a handler.
func (p *Plugin) handled() []hookdv1.Point {
	set := map[hookdv1.Point]bool{
		hookdv1.Point_POINT_SESSION_START: p.SessionStart != nil,
		hookdv1.Point_POINT_PRE_STEP:      p.PreStep != nil,
		hookdv1.Point_POINT_PRE_TOOL:      p.PreTool != nil,
		hookdv1.Point_POINT_GUARD:         p.Guard != nil,
		hookdv1.Point_POINT_EXECUTE:       p.Execute != nil,
		hookdv1.Point_POINT_POST_TOOL:     p.PostTool != nil,
		hookdv1.Point_POINT_TOOL_RESULT:   p.ToolResult != nil,
		hookdv1.Point_POINT_TURN_STOPPING: p.TurnStopping != nil,
		hookdv1.Point_POINT_REWRITE:       p.Rewrite != nil,
		hookdv1.Point_POINT_APPROVAL:      p.Approval != nil,
		hookdv1.Point_POINT_SESSION_END:   p.SessionEnd != nil,
		hookdv1.Point_POINT_TURN_END:      p.TurnEnd != nil,
		hookdv1.Point_POINT_AGENT_EVENT:   p.AgentEvent != nil,
	}
	var points []hookdv1.Point
	for point, ok := range set {
		if ok {
			points = append(points, point)
		}
	}
	slices.Sort(points)
	return points
}

// Manifest validates the plugin and returns the manifest Describe answers. The error names the
// offending field (e.g. `no-rm: Options[pre-step]: no PreStep handler`).
func (p *Plugin) Manifest() (*hookdv1.PluginManifest, error) {
	if p == nil {
		return nil, fmt.Errorf("plugin: nil")
	}
	if !pluginName.MatchString(p.Name) {
		return nil, fmt.Errorf("plugin: Name: expected letters, digits, '.', '_' or '-' (starting with a letter or digit), got %q", p.Name)
	}
	if _, ok := hookdv1.PluginTransport_name[int32(p.Transport)]; !ok {
		return nil, fmt.Errorf("%s: Transport: unknown PluginTransport %d", p.Name, p.Transport)
	}
	points := p.handled()
	if len(points) == 0 {
		return nil, fmt.Errorf("%s: a plugin must handle at least one point (set a handler such as PreTool)", p.Name)
	}
	for point := range p.Options {
		if !slices.Contains(points, point) {
			return nil, fmt.Errorf("%s: Options[%s]: no handler for this point", p.Name, PointName(point))
		}
	}
	manifest := &hookdv1.PluginManifest{Name: p.Name, Version: p.Version, SideEffectFree: p.SideEffectFree, Transport: p.Transport}
	if manifest.Version == "" {
		manifest.Version = "0.0.0"
	}
	for _, point := range points {
		sub, err := subscription(point, p.Options[point])
		if err != nil {
			return nil, fmt.Errorf("%s: Options[%s].%w", p.Name, PointName(point), err)
		}
		manifest.Subscriptions = append(manifest.Subscriptions, sub)
	}
	return manifest, nil
}

func subscription(point hookdv1.Point, options Subscription) (*hookdv1.Subscription, error) {
	if len(options.Tools) > 0 && !takesMatchers(point) {
		return nil, fmt.Errorf("Tools: matchers apply only to tool points and agent-event")
	}
	for i, glob := range options.Tools {
		if glob == "" {
			return nil, fmt.Errorf("Tools[%d]: empty matcher", i)
		}
	}
	if options.Deadline < 0 || options.Deadline%time.Millisecond != 0 || options.Deadline/time.Millisecond > 1<<32-1 {
		return nil, fmt.Errorf("Deadline: expected whole milliseconds, 0 or more, got %v", options.Deadline)
	}
	if _, ok := hookdv1.FailurePolicy_name[int32(options.FailurePolicy)]; !ok {
		return nil, fmt.Errorf("FailurePolicy: unknown FailurePolicy %d", options.FailurePolicy)
	}
	return &hookdv1.Subscription{
		Point:         point,
		Tools:         slices.Clone(options.Tools),
		Priority:      options.Priority,
		DeadlineMs:    uint32(options.Deadline / time.Millisecond),
		FailurePolicy: options.FailurePolicy,
	}, nil
}
