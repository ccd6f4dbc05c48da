package hookdtest

import (
	"fmt"

	"google.golang.org/protobuf/proto"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
)

// Agent is the agent id of the sessions these helpers build (and StartDaemon's host client).
const Agent = "hookdtest-agent"

// Session is a session of Agent with the given id.
func Session(id string) *hookdv1.SessionInfo {
	return &hookdv1.SessionInfo{SessionId: id, AgentId: Agent, Cwd: "/"}
}

// ToolCall is a sealed call "call-1" of tool with argumentsJSON (a JSON object) in session s1.
func ToolCall(tool, argumentsJSON string) *hookdv1.ToolCall {
	return &hookdv1.ToolCall{CallId: "call-1", RootCallId: "call-1", ToolName: tool, ArgumentsJson: argumentsJSON, SessionId: "s1", Turn: 1, Step: 1}
}

// InSession is call moved to session: its session id and the event's session agree.
func InSession(call *hookdv1.ToolCall, session *hookdv1.SessionInfo) *hookdv1.ToolCall {
	moved := proto.Clone(call).(*hookdv1.ToolCall)
	moved.SessionId = session.GetSessionId()
	return moved
}

// PreToolEvent is the pre-tool event of call in session s1.
func PreToolEvent(call *hookdv1.ToolCall) *hookdv1.PreToolEvent {
	return &hookdv1.PreToolEvent{Session: Session(call.GetSessionId()), Call: call}
}

// RewriteEvent is the rewrite event of call in session s1.
func RewriteEvent(call *hookdv1.ToolCall) *hookdv1.RewriteEvent {
	return &hookdv1.RewriteEvent{Session: Session(call.GetSessionId()), Call: call}
}

// PostToolEvent is the post-tool event of call and its result.
func PostToolEvent(call *hookdv1.ToolCall, result *hookdv1.ToolResult) *hookdv1.PostToolEvent {
	return &hookdv1.PostToolEvent{Session: Session(call.GetSessionId()), Call: call, Result: result}
}

// ToolResultEvent is the tool-result event of call and its final result.
func ToolResultEvent(call *hookdv1.ToolCall, result *hookdv1.ToolResult) *hookdv1.ToolResultEvent {
	return &hookdv1.ToolResultEvent{Session: Session(call.GetSessionId()), Call: call, Result: result}
}

// Success is a successful result with valueJSON as its value and text as what the model sees.
func Success(valueJSON, text string) *hookdv1.ToolResult {
	content := []*hookdv1.ContentBlock{{Block: &hookdv1.ContentBlock_Text{Text: text}}}
	return &hookdv1.ToolResult{Outcome: &hookdv1.ToolResult_Success{Success: &hookdv1.ToolSuccess{ValueJson: valueJSON, Content: content}}}
}

// Failure is a failed result.
func Failure(code, message string) *hookdv1.ToolResult {
	return &hookdv1.ToolResult{Outcome: &hookdv1.ToolResult_Failure{Failure: &hookdv1.ToolFailure{Code: code, Message: message}}}
}

// Prompt is a user prompt (a user-role message sourced to the user).
func Prompt(id, text string) *hookdv1.Message {
	return &hookdv1.Message{
		Id:      id,
		Role:    hookdv1.Role_ROLE_USER,
		Content: []*hookdv1.ContentBlock{{Block: &hookdv1.ContentBlock_Text{Text: text}}},
		Source:  &hookdv1.MessageSource{Kind: &hookdv1.MessageSource_User{User: &hookdv1.UserSource{}}},
	}
}

// PreStepEvent is step 1 of turn 1 in session s1 with messages as its batch.
func PreStepEvent(messages ...*hookdv1.Message) *hookdv1.PreStepEvent {
	return &hookdv1.PreStepEvent{Session: Session("s1"), Turn: 1, Step: 1, Messages: messages}
}

// Kind names the variant a decision carries: "deny", "allow", "pass", "accept", ... ("" when
// none is set, "<nil>" for a nil decision).
func Kind(decision proto.Message) string {
	if decision == nil || !decision.ProtoReflect().IsValid() {
		return "<nil>"
	}
	message := decision.ProtoReflect()
	oneofs := message.Descriptor().Oneofs()
	if oneofs.Len() == 0 {
		panic(fmt.Sprintf("hookdtest.Kind: %s is not a decision", message.Descriptor().FullName()))
	}
	if which := message.WhichOneof(oneofs.Get(0)); which != nil {
		return string(which.Name())
	}
	return ""
}
