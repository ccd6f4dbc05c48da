package main

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

const (
	pluginName    = "tool-audit"
	pluginVersion = "0.1.0"
)

// record is one line of the audit log.
type record struct {
	Time      time.Time `json:"time"`
	SessionID string    `json:"session_id"`
	CallID    string    `json:"call_id"`
	Tool      string    `json:"tool"`
	OK        bool      `json:"ok"`
	// Code and Error describe a failed call: its machine-readable code and its message.
	Code  string `json:"code,omitempty"`
	Error string `json:"error,omitempty"`
}

// auditor is the tool-result observer: it appends one JSON line per final tool result to w.
type auditor struct {
	now func() time.Time

	mu sync.Mutex // serializes writes so that concurrent calls never interleave lines
	w  io.Writer
}

// plugin is the auditor as a hookd plugin: tool-result for every tool, fail-open; writing the
// log is a side effect, so it is not side-effect free.
func (a *auditor) plugin() *hookd.Plugin {
	return &hookd.Plugin{
		Name:       pluginName,
		Version:    pluginVersion,
		ToolResult: a.toolResult,
		Options: map[hookdv1.Point]hookd.Subscription{
			hookdv1.Point_POINT_TOOL_RESULT: {FailurePolicy: hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_OPEN},
		},
	}
}

func (a *auditor) toolResult(ctx context.Context, ev *hookdv1.ToolResultEvent) error {
	rec := record{
		Time:      a.now().UTC(),
		SessionID: ev.GetSession().GetSessionId(),
		CallID:    ev.GetCall().GetCallId(),
		Tool:      ev.GetCall().GetToolName(),
		OK:        ev.GetResult().GetSuccess() != nil,
	}
	if f := ev.GetResult().GetFailure(); f != nil {
		rec.Code, rec.Error = f.GetCode(), f.GetMessage()
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return a.append(ctx, append(line, '\n'))
}

// append writes line unless the call's deadline passed while it waited for its turn.
func (a *auditor) append(ctx context.Context, line []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err := a.w.Write(line)
	return err
}
