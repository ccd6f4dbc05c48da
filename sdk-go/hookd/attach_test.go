package hookd_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
	"github.com/hookd-dev/hookd/sdk-go/hookdtest"
)

func callFrame(id uint64, tool string) *hookdv1.AttachRequest {
	event := hookdtest.PreToolEvent(hookdtest.ToolCall(tool, "{}"))
	call := &hookdv1.AttachCall{CallId: id, DeadlineMs: 60_000, Request: &hookdv1.AttachCall_PreTool{PreTool: &hookdv1.PreToolRequest{Event: event}}}
	return &hookdv1.AttachRequest{Frame: &hookdv1.AttachRequest_Call{Call: call}}
}

func openFrame() *hookdv1.AttachRequest {
	return &hookdv1.AttachRequest{Frame: &hookdv1.AttachRequest_Open{Open: &hookdv1.AttachOpen{PluginName: "configured", Window: 64}}}
}

// A full window of calls runs concurrently, answered as they finish: call i waits until call i+1 has
// answered, so the answers must come back in reverse order, each under its own id.
func TestAttachAnswersOutOfOrderAndConcurrently(t *testing.T) {
	const calls = hookdtest.Window // a full window of calls in flight at once
	release := make([]chan struct{}, calls+1)
	for i := range release {
		release[i] = make(chan struct{})
	}
	close(release[calls])
	plugin := &hookd.Plugin{Name: "ordered", PreTool: func(ctx context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
		var i int
		fmt.Sscan(ev.GetCall().GetToolName(), &i)
		select {
		case <-release[i+1]:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		info, _ := hookd.CallInfoFrom(ctx)
		return hookd.PreTool.Deny(fmt.Sprintf("%d for %s", i, info.Plugin)), nil
	}}
	client := hookdtest.Start(t, plugin)
	stream, err := hookdv1.NewHookPluginClient(client.Conn()).Attach(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := stream.Send(openFrame()); err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		if err := stream.Send(callFrame(uint64(100+i), fmt.Sprint(i))); err != nil {
			t.Fatal(err)
		}
	}
	for want := calls - 1; want >= 0; want-- {
		answer, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		reason := answer.GetPreTool().GetDecision().GetDeny().GetReason()
		if answer.GetCallId() != uint64(100+want) || reason != fmt.Sprintf("%d for configured", want) {
			t.Fatalf("answer %v, want call %d", answer, 100+want)
		}
		close(release[want])
	}
	if err := stream.CloseSend(); err != nil {
		t.Fatal(err)
	}
	if answer, err := stream.Recv(); err == nil {
		t.Fatalf("after half-close: %v", answer)
	}
}

// A cancel frame cancels the handler's context, and the cancelled call is never answered.
func TestAttachCancelFrameCancelsTheHandler(t *testing.T) {
	started, cancelled := make(chan struct{}), make(chan error, 1)
	plugin := &hookd.Plugin{Name: "cancellable", PreTool: func(ctx context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
		if ev.GetCall().GetToolName() != "hold" {
			return hookd.PreTool.Allow(), nil
		}
		close(started)
		<-ctx.Done()
		cancelled <- ctx.Err()
		return hookd.PreTool.Deny("answered after the cancel"), nil
	}}
	client := hookdtest.Start(t, plugin)
	stream, err := hookdv1.NewHookPluginClient(client.Conn()).Attach(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, frame := range []*hookdv1.AttachRequest{openFrame(), callFrame(1, "hold")} {
		if err := stream.Send(frame); err != nil {
			t.Fatal(err)
		}
	}
	<-started // a call cancelled before its handler starts is never run at all
	if err := stream.Send(&hookdv1.AttachRequest{Frame: &hookdv1.AttachRequest_Cancel{Cancel: &hookdv1.AttachCancel{CallId: 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Fatalf("handler context ended with %v, want Canceled", err)
	}
	// The next answer on the stream is call 2's: call 1 was not answered.
	if err := stream.Send(callFrame(2, "go")); err != nil {
		t.Fatal(err)
	}
	answer, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if answer.GetCallId() != 2 || answer.GetPreTool().GetDecision().GetAllow() == nil {
		t.Fatalf("answer = %v, want call 2 allowed", answer)
	}
}

// Protocol mistakes: a call before open ends the stream; a duplicate id in flight is answered
// INVALID_ARGUMENT for that id and the stream goes on.
func TestAttachProtocolMistakes(t *testing.T) {
	hold := make(chan struct{})
	plugin := &hookd.Plugin{Name: "strict", PreTool: func(ctx context.Context, ev *hookdv1.PreToolEvent) (*hookdv1.PreToolDecision, error) {
		select {
		case <-hold:
		case <-ctx.Done():
		}
		return hookd.PreTool.Allow(), nil
	}}
	client := hookdtest.Start(t, plugin)
	rpc := hookdv1.NewHookPluginClient(client.Conn())

	early, err := rpc.Attach(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if err := early.Send(callFrame(1, "x")); err != nil {
		t.Fatal(err)
	}
	if _, err := early.Recv(); err == nil || !containsAll(err.Error(), "InvalidArgument", "the first frame of an Attach stream must be open") {
		t.Fatalf("call before open: %v", err)
	}

	stream, err := rpc.Attach(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, frame := range []*hookdv1.AttachRequest{openFrame(), callFrame(7, "x"), callFrame(7, "x")} {
		if err := stream.Send(frame); err != nil {
			t.Fatal(err)
		}
	}
	dup, err := stream.Recv()
	if err != nil {
		t.Fatal(err)
	}
	if dup.GetCallId() != 7 || codes.Code(dup.GetError().GetCode()) != codes.InvalidArgument || dup.GetError().GetMessage() != "call.call_id: 7 is already in flight on this stream" {
		t.Fatalf("duplicate answer = %v", dup)
	}
	close(hold)
	first, err := stream.Recv()
	if err != nil || first.GetCallId() != 7 || first.GetPreTool().GetDecision().GetAllow() == nil {
		t.Fatalf("first call's answer = %v, %v", first, err)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, part := range parts {
		if !strings.Contains(s, part) {
			return false
		}
	}
	return true
}

// Shutdown with an Attach stream open: the call in flight is answered, a call sent after
// shutdown began is refused UNAVAILABLE, and the stream then ends UNAVAILABLE, so Serve returns
// without waiting out its (here very long) grace period.
func TestShutdownEndsAttachStreamsOnceIdle(t *testing.T) {
	started, release := make(chan struct{}), make(chan struct{})
	lis, err := hookd.Listen("unix:" + filepath.Join(shortDir(t), "p.sock"))
	if err != nil {
		t.Fatal(err)
	}
	stopping := &closeSignal{Listener: lis, closed: make(chan struct{})}
	ctx, shutdown := context.WithCancel(t.Context())
	served := make(chan error, 1)
	go func() {
		served <- hookd.ServeListener(ctx, stopping, slowPlugin(started, release), hookd.WithGrace(time.Hour))
	}()
	conn, err := grpc.NewClient("unix:"+lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stream, err := hookdv1.NewHookPluginClient(conn).Attach(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, frame := range []*hookdv1.AttachRequest{openFrame(), callFrame(1, "held")} {
		if err := stream.Send(frame); err != nil {
			t.Fatal(err)
		}
	}
	<-started
	shutdown()
	<-stopping.closed // shutdown has begun
	if err := stream.Send(callFrame(2, "late")); err != nil {
		t.Fatal(err)
	}
	late, err := stream.Recv()
	if err != nil || late.GetCallId() != 2 || codes.Code(late.GetError().GetCode()) != codes.Unavailable {
		t.Fatalf("late call: %v, %v", late, err)
	}
	close(release)
	held, err := stream.Recv()
	if err != nil || held.GetCallId() != 1 || held.GetPreTool().GetDecision().GetAllow() == nil {
		t.Fatalf("held call: %v, %v", held, err)
	}
	if _, err := stream.Recv(); status.Code(err) != codes.Unavailable {
		t.Fatalf("stream end: %v", err)
	}
	// Bounded: a Serve that waited for its grace would still be running an hour from now.
	select {
	case err := <-served:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("Serve is still waiting on the Attach stream")
	}
}
