package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookdtest"
)

// syncBuffer is a bytes.Buffer that the test may read while the server writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

var fixedNow = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// startAuditor serves the auditor on a temporary socket (hookdtest) and calls it the way the
// daemon does.
func startAuditor(t *testing.T, options ...hookdtest.Option) (*hookdtest.Client, *syncBuffer) {
	t.Helper()
	out := &syncBuffer{}
	client := hookdtest.Start(t, (&auditor{now: func() time.Time { return fixedNow }, w: out}).plugin(), options...)
	return client, out
}

func toolResult(callID, tool string, result *hookdv1.ToolResult) *hookdv1.ToolResultEvent {
	call := hookdtest.ToolCall(tool, "{}")
	call.CallId, call.RootCallId = callID, callID
	return hookdtest.ToolResultEvent(call, result)
}

func TestDescribe(t *testing.T) {
	client, _ := startAuditor(t)
	m := client.Manifest()
	if m.GetName() != "tool-audit" || m.GetSideEffectFree() || len(m.GetSubscriptions()) != 1 {
		t.Fatalf("manifest = %v", m)
	}
	if sub := m.GetSubscriptions()[0]; sub.GetPoint() != hookdv1.Point_POINT_TOOL_RESULT || len(sub.GetTools()) != 0 {
		t.Fatalf("subscription = %v", sub)
	}
}

func TestAppendsOneLinePerResult(t *testing.T) {
	client, out := startAuditor(t)
	success := &hookdv1.ToolResult{Outcome: &hookdv1.ToolResult_Success{Success: &hookdv1.ToolSuccess{ValueJson: `"ok"`}}}
	failure := &hookdv1.ToolResult{Outcome: &hookdv1.ToolResult_Failure{Failure: &hookdv1.ToolFailure{Message: "not allowed", Code: "denied", Name: "policy"}}}
	for _, ev := range []*hookdv1.ToolResultEvent{toolResult("c1", "read_file", success), toolResult("c2", "bash", failure)} {
		if err := client.ToolResult(t.Context(), ev); err != nil {
			t.Fatal(err)
		}
	}
	want := `{"time":"2026-01-02T03:04:05Z","session_id":"s1","call_id":"c1","tool":"read_file","ok":true}
{"time":"2026-01-02T03:04:05Z","session_id":"s1","call_id":"c2","tool":"bash","ok":false,"code":"denied","error":"not allowed"}
`
	if got := out.String(); got != want {
		t.Fatalf("log =\n%s\nwant\n%s", got, want)
	}
}

func TestConcurrentResultsKeepWholeLines(t *testing.T) {
	// Over the Attach stream, where the calls run concurrently in the plugin.
	client, out := startAuditor(t, hookdtest.OverStream())
	success := &hookdv1.ToolResult{Outcome: &hookdv1.ToolResult_Success{Success: &hookdv1.ToolSuccess{ValueJson: "1"}}}
	const calls = 50
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			if err := client.ToolResult(t.Context(), toolResult(fmt.Sprint("c", i), "t", success)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()

	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != calls {
		t.Fatalf("got %d lines, want %d", len(lines), calls)
	}
	seen := map[string]bool{}
	for _, line := range lines {
		var rec record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		seen[rec.CallID] = true
	}
	if len(seen) != calls {
		t.Fatalf("got %d distinct call ids, want %d", len(seen), calls)
	}
}
