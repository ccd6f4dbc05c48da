package main

import (
	"context"
	"encoding/json"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc/status"

	hookdv1 "example.com/hookd/hooks-examples/go/gen/hookd/v1"
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
	hookdv1.UnimplementedHookPluginServer
	now func() time.Time

	mu sync.Mutex // serializes writes so that concurrent calls never interleave lines
	w  io.Writer
}

func (a *auditor) Describe(context.Context, *hookdv1.DescribeRequest) (*hookdv1.DescribeResponse, error) {
	return &hookdv1.DescribeResponse{Manifest: &hookdv1.PluginManifest{
		Name:    pluginName,
		Version: pluginVersion,
		Subscriptions: []*hookdv1.Subscription{{
			Point:         hookdv1.Point_POINT_TOOL_RESULT,
			FailurePolicy: hookdv1.FailurePolicy_FAILURE_POLICY_FAIL_OPEN,
		}},
		// Writing the log is a side effect.
		SideEffectFree: false,
	}}, nil
}

func (a *auditor) ToolResult(ctx context.Context, req *hookdv1.ToolResultRequest) (*hookdv1.ToolResultResponse, error) {
	ev := req.GetEvent()
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
		return nil, err
	}
	if err := a.append(ctx, append(line, '\n')); err != nil {
		return nil, err
	}
	return &hookdv1.ToolResultResponse{}, nil
}

// append writes line unless the call's deadline passed while it waited for its turn.
func (a *auditor) append(ctx context.Context, line []byte) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return status.FromContextError(err).Err()
	}
	_, err := a.w.Write(line)
	return err
}
