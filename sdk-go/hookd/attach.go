package hookd

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// errCancelledByDaemon is the cause of a stream call's context when the daemon sent its cancel
// frame: the call is then not answered (the daemon stopped waiting and would drop the answer).
var errCancelledByDaemon = errors.New("the daemon cancelled the call")

// errStreamEnded is the cause of the calls' contexts when the Attach stream ends under them.
var errStreamEnded = errors.New("the Attach stream ended")

// Attach serves the stream path (docs/streams.md): after the daemon's open frame each call frame
// runs its point's handler at once, in its own goroutine, with a context that carries the
// frame's deadline and is cancelled by the call's cancel frame or the end of the stream. Every
// call is answered once, as it finishes (so in any order), with its point's response or with the
// CallError of the status the unary RPC would have ended with; a call the daemon cancelled is not
// answered. The daemon keeps at most its window of calls in flight, so their number is bounded.
func (s *server) Attach(stream hookdv1.HookPlugin_AttachServer) error {
	a := &attachment{server: s, stream: stream, running: map[uint64]context.CancelCauseFunc{}}
	err := a.serve(stream.Context())
	// Handlers still running must stop before Attach returns: a stream cannot be sent on after.
	a.cancelAll(errStreamEnded)
	a.calls.Wait()
	return err
}

type attachment struct {
	server *server
	stream hookdv1.HookPlugin_AttachServer

	sendMu sync.Mutex // grpc-go streams take one sender at a time

	mu      sync.Mutex
	running map[uint64]context.CancelCauseFunc
	calls   sync.WaitGroup
}

func (a *attachment) serve(ctx context.Context) error {
	frames, ended := a.receive(ctx)
	opened, stopping := false, false
	draining := a.server.draining
	var idle chan struct{}
	for {
		select {
		case err := <-ended:
			if err == io.EOF {
				// The daemon half-closed: answer what is still running, then end the stream.
				a.calls.Wait()
				return nil
			}
			return err
		case <-draining:
			// Shutdown began: calls in flight finish and are answered (cancel frames still
			// work), new ones are refused, then the stream ends so GracefulStop need not wait out
			// its grace period on it.
			draining, stopping = nil, true
			idle = make(chan struct{})
			go func() { a.calls.Wait(); close(idle) }()
		case <-idle:
			return status.Error(codes.Unavailable, "the plugin is shutting down")
		case request := <-frames:
			switch frame := request.GetFrame().(type) {
			case *hookdv1.AttachRequest_Open:
				opened = true
				if name := frame.Open.GetPluginName(); name != "" {
					a.server.configured.Store(&name)
				}
			case *hookdv1.AttachRequest_Cancel:
				a.mu.Lock()
				cancel := a.running[frame.Cancel.GetCallId()]
				a.mu.Unlock()
				if cancel != nil {
					cancel(errCancelledByDaemon)
				}
			case *hookdv1.AttachRequest_Call:
				if !opened {
					return status.Error(codes.InvalidArgument, "frame: the first frame of an Attach stream must be open")
				}
				if stopping {
					a.send(errorFrame(frame.Call.GetCallId(), status.New(codes.Unavailable, "the plugin is shutting down")))
					continue
				}
				a.start(ctx, frame.Call)
			default:
				// An empty frame, or a kind of frame from a newer daemon: nothing to do.
			}
		}
	}
}

// receive reads the stream's frames in a goroutine of its own, so that serve can also watch for
// shutdown; it ends when the stream does (the stream's context ends when Attach returns).
func (a *attachment) receive(ctx context.Context) (<-chan *hookdv1.AttachRequest, <-chan error) {
	frames, ended := make(chan *hookdv1.AttachRequest), make(chan error, 1)
	go func() {
		for {
			request, err := a.stream.Recv()
			if err != nil {
				ended <- err
				return
			}
			select {
			case frames <- request:
			case <-ctx.Done():
				return
			}
		}
	}()
	return frames, ended
}

// start runs one call frame in its own goroutine.
func (a *attachment) start(streamCtx context.Context, call *hookdv1.AttachCall) {
	id := call.GetCallId()
	a.mu.Lock()
	if _, dup := a.running[id]; dup {
		a.mu.Unlock()
		a.send(errorFrame(id, status.Newf(codes.InvalidArgument, "call.call_id: %d is already in flight on this stream", id)))
		return
	}
	ctx, cancel := context.WithCancelCause(streamCtx)
	a.running[id] = cancel
	a.mu.Unlock()

	ctx = context.WithValue(ctx, callInfoKey{}, CallInfo{Transport: "stream", Traceparent: call.GetTraceparent()})
	stopTimer := context.CancelFunc(func() {})
	if ms := call.GetDeadlineMs(); ms > 0 {
		ctx, stopTimer = context.WithDeadline(ctx, time.Now().Add(time.Duration(ms)*time.Millisecond))
	}
	a.calls.Add(1)
	go func() {
		defer a.calls.Done()
		defer func() {
			a.mu.Lock()
			delete(a.running, id)
			a.mu.Unlock()
			stopTimer()
			cancel(nil)
		}()
		response := a.server.dispatch(ctx, call)
		if errors.Is(context.Cause(ctx), errCancelledByDaemon) {
			return
		}
		a.send(response)
	}()
}

func (a *attachment) send(response *hookdv1.AttachResponse) {
	a.sendMu.Lock()
	defer a.sendMu.Unlock()
	// An answer the stream can no longer carry is dropped: the daemon failed the call already.
	_ = a.stream.Send(response)
}

func (a *attachment) cancelAll(cause error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, cancel := range a.running {
		cancel(cause)
	}
}

func errorFrame(id uint64, st *status.Status) *hookdv1.AttachResponse {
	return &hookdv1.AttachResponse{CallId: id, Reply: &hookdv1.AttachResponse_Error{Error: &hookdv1.CallError{Code: int32(st.Code()), Message: st.Message()}}}
}

// dispatch runs the unary method of the call's point and puts its answer in the point's field.
func (s *server) dispatch(ctx context.Context, call *hookdv1.AttachCall) *hookdv1.AttachResponse {
	id := call.GetCallId()
	response, err := s.reply(ctx, call)
	if err != nil {
		st, _ := status.FromError(err)
		if ctx.Err() != nil && (st.Code() == codes.Unknown || st.Code() == codes.OK) {
			st = status.FromContextError(ctx.Err())
		}
		return errorFrame(id, st)
	}
	response.CallId = id
	return response
}

func (s *server) reply(ctx context.Context, call *hookdv1.AttachCall) (*hookdv1.AttachResponse, error) {
	switch request := call.GetRequest().(type) {
	case *hookdv1.AttachCall_SessionStart:
		r, err := s.SessionStart(ctx, request.SessionStart)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_SessionStart{SessionStart: r}}, err
	case *hookdv1.AttachCall_PreStep:
		r, err := s.PreStep(ctx, request.PreStep)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_PreStep{PreStep: r}}, err
	case *hookdv1.AttachCall_PreTool:
		r, err := s.PreTool(ctx, request.PreTool)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_PreTool{PreTool: r}}, err
	case *hookdv1.AttachCall_Guard:
		r, err := s.Guard(ctx, request.Guard)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_Guard{Guard: r}}, err
	case *hookdv1.AttachCall_Execute:
		r, err := s.Execute(ctx, request.Execute)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_Execute{Execute: r}}, err
	case *hookdv1.AttachCall_PostTool:
		r, err := s.PostTool(ctx, request.PostTool)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_PostTool{PostTool: r}}, err
	case *hookdv1.AttachCall_ToolResult:
		r, err := s.ToolResult(ctx, request.ToolResult)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_ToolResult{ToolResult: r}}, err
	case *hookdv1.AttachCall_TurnStopping:
		r, err := s.TurnStopping(ctx, request.TurnStopping)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_TurnStopping{TurnStopping: r}}, err
	case *hookdv1.AttachCall_Rewrite:
		r, err := s.Rewrite(ctx, request.Rewrite)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_Rewrite{Rewrite: r}}, err
	case *hookdv1.AttachCall_Approve:
		r, err := s.Approve(ctx, request.Approve)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_Approve{Approve: r}}, err
	case *hookdv1.AttachCall_SessionEnd:
		r, err := s.SessionEnd(ctx, request.SessionEnd)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_SessionEnd{SessionEnd: r}}, err
	case *hookdv1.AttachCall_TurnEnd:
		r, err := s.TurnEnd(ctx, request.TurnEnd)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_TurnEnd{TurnEnd: r}}, err
	case *hookdv1.AttachCall_AgentEvent:
		r, err := s.AgentEvent(ctx, request.AgentEvent)
		return &hookdv1.AttachResponse{Reply: &hookdv1.AttachResponse_AgentEvent{AgentEvent: r}}, err
	case nil:
		return nil, status.Error(codes.InvalidArgument, "call.request: missing")
	default:
		// A point of a newer proto this SDK does not know.
		return nil, status.Error(codes.Unimplemented, "call.request: a point this plugin does not know")
	}
}
