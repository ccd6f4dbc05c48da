package hookdtest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// Window is the window the test client's open frame announces (the daemon's).
const Window = 64

// attachClient multiplexes calls over one Attach stream the way the daemon does: an open frame
// first, then call frames with ids; answers are matched by id in any order; a call whose context
// ends first gets a cancel frame.
type attachClient struct {
	stream grpc.BidiStreamingClient[hookdv1.AttachRequest, hookdv1.AttachResponse]
	cancel context.CancelFunc

	sendMu sync.Mutex
	mu     sync.Mutex
	nextID uint64
	// waiting holds the answer channel of every call in flight; broken is set once the stream ends.
	waiting map[uint64]chan *hookdv1.AttachResponse
	broken  error
}

func openAttach(conn *grpc.ClientConn) (*attachClient, error) {
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := hookdv1.NewHookPluginClient(conn).Attach(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	a := &attachClient{stream: stream, cancel: cancel, waiting: map[uint64]chan *hookdv1.AttachResponse{}}
	open := &hookdv1.AttachRequest{Frame: &hookdv1.AttachRequest_Open{Open: &hookdv1.AttachOpen{DaemonVersion: "hookdtest", PluginName: "hookdtest", Window: Window}}}
	if err := a.send(open); err != nil {
		cancel()
		return nil, err
	}
	go a.read()
	return a, nil
}

func (a *attachClient) send(frame *hookdv1.AttachRequest) error {
	a.sendMu.Lock()
	defer a.sendMu.Unlock()
	return a.stream.Send(frame)
}

func (a *attachClient) read() {
	for {
		response, err := a.stream.Recv()
		if err != nil {
			a.mu.Lock()
			a.broken = err
			for id, answer := range a.waiting {
				close(answer)
				delete(a.waiting, id)
			}
			a.mu.Unlock()
			return
		}
		a.mu.Lock()
		answer, ok := a.waiting[response.GetCallId()]
		delete(a.waiting, response.GetCallId())
		a.mu.Unlock()
		if ok {
			answer <- response
		}
	}
}

func (a *attachClient) close() {
	a.cancel()
}

// call sends request as the call frame of point and fills response from its answer frame.
func (a *attachClient) call(ctx context.Context, point hookdv1.Point, request, response proto.Message) error {
	frame := &hookdv1.AttachCall{}
	field := frame.ProtoReflect().Descriptor().Fields().ByNumber(protoreflect.FieldNumber(10 + point))
	if field == nil {
		return fmt.Errorf("hookdtest: AttachCall has no field for %v", point)
	}
	frame.ProtoReflect().Set(field, protoreflect.ValueOfMessage(request.ProtoReflect()))
	if deadline, ok := ctx.Deadline(); ok {
		frame.DeadlineMs = uint32(max(1, time.Until(deadline).Milliseconds()))
	}
	answer := make(chan *hookdv1.AttachResponse, 1)
	a.mu.Lock()
	if a.broken != nil {
		a.mu.Unlock()
		return status.Errorf(codes.Unavailable, "the Attach stream broke: %v", a.broken)
	}
	a.nextID++
	frame.CallId = a.nextID
	a.waiting[frame.CallId] = answer
	a.mu.Unlock()

	if err := a.send(&hookdv1.AttachRequest{Frame: &hookdv1.AttachRequest_Call{Call: frame}}); err != nil {
		return status.Errorf(codes.Unavailable, "sending the call frame: %v", err)
	}
	select {
	case got, ok := <-answer:
		if !ok {
			return status.Errorf(codes.Unavailable, "the Attach stream broke with the call in flight: %v", a.broken)
		}
		return readAnswer(got, point, response)
	case <-ctx.Done():
		a.mu.Lock()
		delete(a.waiting, frame.CallId)
		a.mu.Unlock()
		cancel := &hookdv1.AttachRequest{Frame: &hookdv1.AttachRequest_Cancel{Cancel: &hookdv1.AttachCancel{CallId: frame.CallId}}}
		_ = a.send(cancel)
		return status.FromContextError(ctx.Err()).Err()
	}
}

// readAnswer copies the point's response out of an answer frame; a CallError becomes its status.
func readAnswer(got *hookdv1.AttachResponse, point hookdv1.Point, response proto.Message) error {
	if callError := got.GetError(); callError != nil {
		return status.Error(codes.Code(callError.GetCode()), callError.GetMessage())
	}
	message := got.ProtoReflect()
	field := message.Descriptor().Fields().ByNumber(protoreflect.FieldNumber(10 + point))
	if !message.Has(field) {
		which := message.WhichOneof(message.Descriptor().Oneofs().ByName("reply"))
		if which == nil {
			return errors.New("hookdtest: the answer frame carries no reply")
		}
		return fmt.Errorf("hookdtest: the answer frame carries %s, not %s", which.Name(), field.Name())
	}
	proto.Merge(response, message.Get(field).Message().Interface())
	return nil
}
