package main

import (
	"testing"

	"github.com/hookd-dev/hookd/sdk-go/hookdtest"
)

// The handlers, called the way the daemon calls them, over unary and the Attach stream.
func TestPreTool(t *testing.T) {
	for _, options := range [][]hookdtest.Option{nil, {hookdtest.OverStream()}} {
		client := hookdtest.Start(t, new{{name_pascal}}(), options...)
		for command, want := range map[string]string{"rm -rf /": "deny", "ls -la": "pass"} {
			decision, err := client.PreTool(t.Context(), hookdtest.PreToolEvent(hookdtest.ToolCall("Bash", `{"command":"`+command+`"}`)))
			if err != nil {
				t.Fatal(err)
			}
			if got := hookdtest.Kind(decision); got != want {
				t.Errorf("%q: %s (%v), want %s", command, got, decision, want)
			}
		}
	}
}

// The plugin under a real hookd daemon (hookdtest.FindDaemon says which one it runs).
func TestUnderTheDaemon(t *testing.T) {
	daemon := hookdtest.StartDaemon(t, hookdtest.Remote(new{{name_pascal}}()))
	answer, err := daemon.PreTool(t.Context(), "{{name}}-1", hookdtest.ToolCall("Bash", `{"command":"rm -rf /"}`))
	if err != nil {
		t.Fatal(err)
	}
	if answer.GetDecision().GetDeny().GetReason() != "{{name}}: rm -rf is not allowed" || answer.GetTrace().GetDecidedBy() != "{{name}}" {
		t.Fatalf("answer = %v", answer)
	}
}
