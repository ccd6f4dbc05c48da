package main

import (
	"context"
	"strings"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// new{{name_pascal}} is the plugin: a pre-tool gate that denies shell commands containing
// "rm -rf" and passes everything else. Add a handler field (PostTool, PreStep, Rewrite, ...) for
// each point to handle; the manifest lists exactly the points with a handler.
func new{{name_pascal}}() *hookd.Plugin {
	return &hookd.Plugin{
		Name:    "{{name}}",
		Version: "0.1.0",
		// Answers depend only on the event: the daemon may call it alongside its neighbours.
		SideEffectFree: true,
		PreTool:        preTool,
		Options: map[hookdv1.Point]hookd.Subscription{
			hookdv1.Point_POINT_PRE_TOOL: {Tools: []string{"Bash"}},
		},
	}
}

func preTool(ctx context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
	args, err := hookd.Arguments(ev.GetCall())
	if err != nil {
		return nil, err // the daemon applies the failure policy (fail-closed at pre-tool)
	}
	if command, _ := args["command"].(string); strings.Contains(command, "rm -rf") {
		return hookd.PreTool.Deny("{{name}}: rm -rf is not allowed"), nil
	}
	return hookd.PreTool.Pass(), nil
}
