package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

const (
	pluginName    = "prompt-guard"
	pluginVersion = "0.1.0"
	checkedNote   = "policy: prompt checked by " + pluginName
)

// A rule denies every prompt whose text its expression matches.
type rule struct {
	name string
	re   *regexp.Regexp
}

// defaultRules apply when no rule is configured.
var defaultRules = []rule{
	{"rm -rf /", regexp.MustCompile(`\brm\s+(?:-\S+\s+)*-[a-zA-Z]*[rR][a-zA-Z]*\s+(?:-\S+\s+)*/(?:\*|\s|$)`)},
	{"download piped to a shell", regexp.MustCompile(`\b(?:curl|wget)\b[^|\n]*\|\s*(?:sudo\s+)?(?:ba|z|da|k)?sh\b`)},
	{"fork bomb", regexp.MustCompile(`:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:`)},
	{"write to a raw disk", regexp.MustCompile(`\b(?:mkfs(?:\.\w+)?\s+|dd\b[^\n]*\bof=)/dev/(?:sd|hd|vd|xvd|nvme|mmcblk)`)},
}

// parseRules reads one regular expression a line; blank lines and lines starting with '#' are
// skipped. Each rule is named by its expression.
func parseRules(r io.Reader) ([]rule, error) {
	var rules []rule
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		expr := strings.TrimSpace(sc.Text())
		if expr == "" || strings.HasPrefix(expr, "#") {
			continue
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		rules = append(rules, rule{expr, re})
	}
	return rules, sc.Err()
}

// guard is the pre-step gate: it rejects a batch whose prompts match a deny rule and otherwise
// enters the step with the batch plus a note that the prompt was checked.
type guard struct {
	rules []rule
}

// plugin is the guard as a hookd plugin: pre-step only, priority 10, fail-closed, pure.
func (g *guard) plugin() *hookd.Plugin {
	return &hookd.Plugin{
		Name:           pluginName,
		Version:        pluginVersion,
		SideEffectFree: true,
		PreStep:        g.preStep,
		Options: map[hookdv1.Point]hookd.Subscription{
			hookdv1.Point_POINT_PRE_STEP: {Priority: 10, FailurePolicy: hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_CLOSED},
		},
	}
}

func (g *guard) preStep(ctx context.Context, ev *hookdv1.PreStepEvent) (*hookdv1.PreStepDecision, error) {
	batch := ev.GetMessages()
	if len(batch) == 0 {
		// A tool continuation with no new input: nothing to check, nothing to note.
		return hookd.PreStep.Pass(), nil
	}
	for _, msg := range batch {
		if !isPrompt(msg) {
			continue
		}
		for _, block := range msg.GetContent() {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if r, ok := g.match(block.GetText()); ok {
				return hookd.PreStep.Reject(fmt.Sprintf("prompt matches deny rule %q", r.name)), nil
			}
		}
	}
	// Enter carries the complete batch: the claimed messages unchanged, then the note.
	return hookd.PreStep.Enter(append(slices.Clone(batch), checkedMessage())...), nil
}

func (g *guard) match(text string) (rule, bool) {
	for _, r := range g.rules {
		if r.re.MatchString(text) {
			return r, true
		}
	}
	return rule{}, false
}

// isPrompt reports whether msg is input from the user rather than context another plugin added.
func isPrompt(msg *hookdv1.Message) bool {
	return msg.GetRole() == hookdv1.Role_ROLE_USER && msg.GetSource().GetPlugin() == nil
}

func checkedMessage() *hookdv1.Message {
	return hookd.PluginMessage(pluginName, checkedNote)
}
