package hookd_test

import (
	"testing"

	"github.com/hookd-dev/hookd/sdk-go/hookd"
	"github.com/hookd-dev/hookd/sdk-go/hookdtest"
)

// One pre-tool call through a served plugin, unary and over the Attach stream, sequentially and
// in parallel: `go test -run '^$' -bench . ./hookd/` (not part of the test run).
func benchmarkPreTool(b *testing.B, options ...hookdtest.Option) {
	client := hookdtest.Start(b, &hookd.Plugin{Name: "bench", PreTool: passPreTool}, options...)
	event := hookdtest.PreToolEvent(hookdtest.ToolCall("Bash", `{"command":"ls"}`))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := client.PreTool(b.Context(), event); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkPreToolUnary(b *testing.B)  { benchmarkPreTool(b) }
func BenchmarkPreToolStream(b *testing.B) { benchmarkPreTool(b, hookdtest.OverStream()) }
