package hookd

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// CallInfo describes the call a handler is running for; CallInfoFrom reads it from the handler's
// context.
type CallInfo struct {
	// Point is the point being called.
	Point hookdv1.Point
	// Transport is "unary" or "stream".
	Transport string
	// Plugin is the name the daemon's config gives this plugin (from Describe or the stream's
	// open frame); empty when the daemon did not say.
	Plugin string
	// Traceparent is the W3C trace context of the call's span; empty when tracing is off.
	Traceparent string
}

type callInfoKey struct{}

// CallInfoFrom returns the CallInfo of the call whose handler received ctx.
func CallInfoFrom(ctx context.Context) (CallInfo, bool) {
	info, ok := ctx.Value(callInfoKey{}).(CallInfo)
	return info, ok
}

// decide runs a decision handler and checks its answer: nil handler, error, panic, nil decision
// and a decision without a variant all become the error status the daemon reports as the
// call's failure.
func decide[E any, D proto.Message](ctx context.Context, s *server, point hookdv1.Point, handler func(context.Context, E) (D, error), event E) (D, error) {
	var none D
	if handler == nil {
		return none, status.Errorf(codes.Unimplemented, "plugin %s does not handle %s", s.name, PointName(point))
	}
	var answer D
	err := guarded(ctx, s, point, func(ctx context.Context) (err error) {
		answer, err = handler(ctx, event)
		return err
	})
	if err != nil {
		return none, err
	}
	if problem := checkDecision(answer); problem != "" {
		err := status.Errorf(codes.Unknown, "plugin %s at %s %s", s.name, PointName(point), problem)
		s.onError(point, err)
		return none, err
	}
	return answer, nil
}

// observe runs an observer handler (a notification point that answers nothing).
func observe[E any](ctx context.Context, s *server, point hookdv1.Point, handler func(context.Context, E) error, event E) error {
	if handler == nil {
		return status.Errorf(codes.Unimplemented, "plugin %s does not handle %s", s.name, PointName(point))
	}
	return guarded(ctx, s, point, func(ctx context.Context) error { return handler(ctx, event) })
}

// guarded runs one handler call with its CallInfo in ctx, turning a panic or an error into a
// status error (and reporting it to the server's error log).
func guarded(ctx context.Context, s *server, point hookdv1.Point, run func(context.Context) error) (err error) {
	if err := ctx.Err(); err != nil {
		return status.FromContextError(err).Err()
	}
	info, _ := CallInfoFrom(ctx)
	info.Point = point
	info.Plugin = s.configuredName()
	ctx = context.WithValue(ctx, callInfoKey{}, info)
	defer func() {
		if recovered := recover(); recovered != nil {
			err = status.Errorf(codes.Unknown, "plugin %s at %s panicked: %v", s.name, PointName(point), recovered)
			s.onError(point, fmt.Errorf("%w\n%s", err, debug.Stack()))
		}
	}()
	if err := run(ctx); err != nil {
		converted := toStatus(err, s.name, point)
		s.onError(point, converted)
		return converted
	}
	return nil
}

// toStatus keeps an error that is a gRPC status (or wraps one), maps a context error to
// CANCELLED / DEADLINE_EXCEEDED, and makes anything else UNKNOWN naming the plugin and point.
func toStatus(err error, plugin string, point hookdv1.Point) error {
	var withStatus interface{ GRPCStatus() *status.Status }
	if errors.As(err, &withStatus) {
		return withStatus.GRPCStatus().Err()
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return status.FromContextError(err).Err()
	}
	return status.Errorf(codes.Unknown, "plugin %s at %s failed: %v", plugin, PointName(point), err)
}

// checkDecision says what is wrong with a handler's decision; "" when nothing is.
func checkDecision(answer proto.Message) string {
	if answer == nil || !answer.ProtoReflect().IsValid() {
		return "returned no decision (return the point's Pass() to defer, e.g. hookd.PreTool.Pass())"
	}
	message := answer.ProtoReflect()
	oneofs := message.Descriptor().Oneofs()
	for i := range oneofs.Len() {
		if message.WhichOneof(oneofs.Get(i)) == nil {
			return fmt.Sprintf("returned a %s with no %s set (use the hookd constructors)", message.Descriptor().Name(), oneofs.Get(i).Name())
		}
	}
	return ""
}
