package main

import (
	"context"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/emptypb"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// scenarioOf is the scenario of a point's request, and its point; false for requests without
// raw scenarios.
func scenarioOf(request any) (string, hookdv1.Point, bool) {
	switch r := request.(type) {
	case *hookdv1.PreToolRequest:
		return scenarioOfCall(r.GetEvent().GetCall()), hookdv1.Point_POINT_PRE_TOOL, true
	case *hookdv1.PostToolRequest:
		return scenarioOfCall(r.GetEvent().GetCall()), hookdv1.Point_POINT_POST_TOOL, true
	case *hookdv1.RewriteRequest:
		return scenarioOfCall(r.GetEvent().GetCall()), hookdv1.Point_POINT_REWRITE, true
	case *hookdv1.ApproveRequest:
		return scenarioOfCall(r.GetEvent().GetCall()), hookdv1.Point_POINT_APPROVAL, true
	case *hookdv1.PreStepRequest:
		return firstText(r.GetEvent().GetMessages()), hookdv1.Point_POINT_PRE_STEP, true
	case *hookdv1.TurnStoppingRequest:
		return hookd.MessageText(r.GetEvent().GetLastAssistantMessage()), hookdv1.Point_POINT_TURN_STOPPING, true
	}
	return "", 0, false
}

// rawAnswer is the hand-made response of a raw scenario at point, and the point whose response
// it is (another point's for wrong-variant); nil for every other scenario.
func rawAnswer(scenario string, point hookdv1.Point) (proto.Message, hookdv1.Point) {
	switch scenario {
	case "garbage":
		// A varint (wire type 0) in the decision's field, which holds a message (wire type 2).
		garbage := &emptypb.Empty{}
		garbage.ProtoReflect().SetUnknown(protowire.AppendVarint(protowire.AppendTag(nil, protowire.Number(point), protowire.VarintType), 1))
		return garbage, point
	case "wrong-variant":
		if point == hookdv1.Point_POINT_PRE_TOOL {
			return &hookdv1.PostToolResponse{Decision: hookd.PostTool.Accept()}, hookdv1.Point_POINT_POST_TOOL
		}
		return &hookdv1.PreToolResponse{Decision: hookd.PreTool.Allow()}, hookdv1.Point_POINT_PRE_TOOL
	}
	return nil, 0
}

// rawUnaryAnswers answers the raw scenarios of a unary call instead of the SDK's handler.
func rawUnaryAnswers(ctx context.Context, request any, _ *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	if scenario, point, ok := scenarioOf(request); ok {
		if answer, _ := rawAnswer(scenario, point); answer != nil {
			return answer, nil
		}
	}
	return handler(ctx, request)
}

// rawAttachAnswers answers the call frames of raw scenarios on the Attach stream itself; the SDK
// sees every other frame.
func rawAttachAnswers(srv any, stream grpc.ServerStream, info *grpc.StreamServerInfo, handler grpc.StreamHandler) error {
	if info.FullMethod != "/hookd.v1.HookPlugin/Attach" {
		return handler(srv, stream)
	}
	return handler(srv, &rawStream{ServerStream: stream})
}

// rawStream serializes its sends: the SDK's and the raw answers share the stream.
type rawStream struct {
	grpc.ServerStream
	mu sync.Mutex
}

func (s *rawStream) SendMsg(m any) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ServerStream.SendMsg(m)
}

func (s *rawStream) RecvMsg(m any) error {
	for {
		if err := s.ServerStream.RecvMsg(m); err != nil {
			return err
		}
		call := m.(*hookdv1.AttachRequest).GetCall()
		if call == nil {
			return nil
		}
		field := call.ProtoReflect().WhichOneof(call.ProtoReflect().Descriptor().Oneofs().ByName("request"))
		if field == nil {
			return nil
		}
		request := call.ProtoReflect().Get(field).Message().Interface()
		scenario, point, ok := scenarioOf(request)
		answer, answeredAs := rawAnswer(scenario, point)
		if !ok || answer == nil {
			return nil
		}
		body, err := proto.Marshal(answer)
		if err != nil {
			return err
		}
		// The answer frame by hand: call_id, then the bytes in the reply field of the point whose
		// response they are (10 + its Point value).
		frame := protowire.AppendVarint(protowire.AppendTag(nil, 1, protowire.VarintType), call.GetCallId())
		frame = protowire.AppendBytes(protowire.AppendTag(frame, protowire.Number(10+answeredAs), protowire.BytesType), body)
		raw := &emptypb.Empty{}
		raw.ProtoReflect().SetUnknown(frame)
		if err := s.SendMsg(raw); err != nil {
			return err
		}
	}
}
