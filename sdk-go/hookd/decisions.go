package hookd

import hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"

// The decision constructors, one namespace per point: hookd.PreTool.Deny("why"),
// hookd.Rewrite.Patch(`{"force":null}`), hookd.PostTool.Pass(). Each returns the point's decision
// message with the right oneof variant set, so a handler cannot answer an empty decision (which
// the daemon treats as a failure, not a pass) or another point's decision.
var (
	SessionStart sessionStartDecisions
	PreStep      preStepDecisions
	PreTool      preToolDecisions
	Guard        guardDecisions
	Execute      executeDecisions
	PostTool     postToolDecisions
	TurnStopping turnStoppingDecisions
	Rewrite      rewriteDecisions
	Approval     approvalDecisions
)

type (
	sessionStartDecisions struct{}
	preStepDecisions      struct{}
	preToolDecisions      struct{}
	guardDecisions        struct{}
	executeDecisions      struct{}
	postToolDecisions     struct{}
	turnStoppingDecisions struct{}
	rewriteDecisions      struct{}
	approvalDecisions     struct{}
)

// Pass contributes nothing.
func (sessionStartDecisions) Pass() *hookdv1.SessionStartDecision {
	return &hookdv1.SessionStartDecision{Decision: &hookdv1.SessionStartDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Inject seeds the session with context messages.
func (sessionStartDecisions) Inject(messages ...*hookdv1.Message) *hookdv1.SessionStartDecision {
	return &hookdv1.SessionStartDecision{Decision: &hookdv1.SessionStartDecision_Inject{Inject: &hookdv1.Inject{Messages: messages}}}
}

// Pass defers to the next plugin.
func (preStepDecisions) Pass() *hookdv1.PreStepDecision {
	return &hookdv1.PreStepDecision{Decision: &hookdv1.PreStepDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Enter enters the step with the complete batch: the claimed messages (changed or not) and any
// context messages the plugin adds.
func (preStepDecisions) Enter(messages ...*hookdv1.Message) *hookdv1.PreStepDecision {
	return &hookdv1.PreStepDecision{Decision: &hookdv1.PreStepDecision_Enter{Enter: &hookdv1.Enter{Messages: messages}}}
}

// Reject closes the turn as blocked; reason is required.
func (preStepDecisions) Reject(reason string) *hookdv1.PreStepDecision {
	return &hookdv1.PreStepDecision{Decision: &hookdv1.PreStepDecision_Reject{Reject: &hookdv1.Reject{Reason: reason}}}
}

// Pass defers to the next plugin.
func (preToolDecisions) Pass() *hookdv1.PreToolDecision {
	return &hookdv1.PreToolDecision{Decision: &hookdv1.PreToolDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Allow lets the call proceed to the guards and dispatch.
func (preToolDecisions) Allow() *hookdv1.PreToolDecision {
	return &hookdv1.PreToolDecision{Decision: &hookdv1.PreToolDecision_Allow{Allow: &hookdv1.Allow{}}}
}

// Deny refuses the call; the model sees "Error: <reason>". reason is required.
func (preToolDecisions) Deny(reason string) *hookdv1.PreToolDecision {
	return &hookdv1.PreToolDecision{Decision: &hookdv1.PreToolDecision_Deny{Deny: &hookdv1.Deny{Reason: reason}}}
}

// Ask asks the approval seam; reason (the question) is required.
func (preToolDecisions) Ask(reason string) *hookdv1.PreToolDecision {
	return &hookdv1.PreToolDecision{Decision: &hookdv1.PreToolDecision_Ask{Ask: &hookdv1.Ask{Reason: reason}}}
}

// Abstain lets the call through this guard.
func (guardDecisions) Abstain() *hookdv1.GuardDecision {
	return &hookdv1.GuardDecision{Decision: &hookdv1.GuardDecision_Abstain{Abstain: &hookdv1.Abstain{}}}
}

// Deny refuses the call; reason is required.
func (guardDecisions) Deny(reason string) *hookdv1.GuardDecision {
	return &hookdv1.GuardDecision{Decision: &hookdv1.GuardDecision_Deny{Deny: &hookdv1.Deny{Reason: reason}}}
}

// Pass leaves the call to the next wrapper and dispatch.
func (executeDecisions) Pass() *hookdv1.ExecuteDecision {
	return &hookdv1.ExecuteDecision{Decision: &hookdv1.ExecuteDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Result answers the call with result instead of dispatching it.
func (executeDecisions) Result(result *hookdv1.ToolResult) *hookdv1.ExecuteDecision {
	return &hookdv1.ExecuteDecision{Decision: &hookdv1.ExecuteDecision_Result{Result: result}}
}

// Pass defers to the next plugin.
func (postToolDecisions) Pass() *hookdv1.PostToolDecision {
	return &hookdv1.PostToolDecision{Decision: &hookdv1.PostToolDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Accept accepts the result as it is, appending context messages (if any) after the batch.
func (postToolDecisions) Accept(contexts ...*hookdv1.Message) *hookdv1.PostToolDecision {
	return &hookdv1.PostToolDecision{Decision: &hookdv1.PostToolDecision_Accept{Accept: &hookdv1.Accept{AdditionalContexts: contexts}}}
}

// ReplaceContent accepts the result with the presentation the model sees replaced (the canonical
// value is kept): the redaction decision.
func (postToolDecisions) ReplaceContent(blocks ...*hookdv1.ContentBlock) *hookdv1.PostToolDecision {
	accept := &hookdv1.Accept{Content: &hookdv1.ContentReplacement{Blocks: blocks}}
	return &hookdv1.PostToolDecision{Decision: &hookdv1.PostToolDecision_Accept{Accept: accept}}
}

// ReplaceValue accepts the result with its canonical value replaced by valueJSON (JSON text); the
// daemon revalidates it and recomputes the presentation. Not allowed on a failed result.
func (postToolDecisions) ReplaceValue(valueJSON string) *hookdv1.PostToolDecision {
	accept := &hookdv1.Accept{ValueJson: &valueJSON}
	return &hookdv1.PostToolDecision{Decision: &hookdv1.PostToolDecision_Accept{Accept: accept}}
}

// Block turns the result into a failure whose content is feedback, verbatim.
func (postToolDecisions) Block(feedback string, contexts ...*hookdv1.Message) *hookdv1.PostToolDecision {
	return &hookdv1.PostToolDecision{Decision: &hookdv1.PostToolDecision_Block{Block: &hookdv1.Block{Feedback: feedback, AdditionalContexts: contexts}}}
}

// Pass lets the turn close.
func (turnStoppingDecisions) Pass() *hookdv1.TurnStoppingDecision {
	return &hookdv1.TurnStoppingDecision{Decision: &hookdv1.TurnStoppingDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Steer runs another step of the turn with messages as steering (at least one).
func (turnStoppingDecisions) Steer(messages ...*hookdv1.Message) *hookdv1.TurnStoppingDecision {
	return &hookdv1.TurnStoppingDecision{Decision: &hookdv1.TurnStoppingDecision_Steer{Steer: &hookdv1.Steer{Messages: messages}}}
}

// Pass keeps the arguments as they are.
func (rewriteDecisions) Pass() *hookdv1.RewriteDecision {
	return &hookdv1.RewriteDecision{Decision: &hookdv1.RewriteDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Replace replaces the arguments as a whole with argumentsJSON, a JSON object (see EncodeJSON).
func (rewriteDecisions) Replace(argumentsJSON string) *hookdv1.RewriteDecision {
	return &hookdv1.RewriteDecision{Decision: &hookdv1.RewriteDecision_Replace{Replace: &hookdv1.Replace{ArgumentsJson: argumentsJSON}}}
}

// Patch merges mergePatchJSON, an RFC 7386 JSON merge patch, into the arguments.
func (rewriteDecisions) Patch(mergePatchJSON string) *hookdv1.RewriteDecision {
	return &hookdv1.RewriteDecision{Decision: &hookdv1.RewriteDecision_Patch{Patch: &hookdv1.Patch{MergePatchJson: mergePatchJSON}}}
}

// Pass defers to the next approver.
func (approvalDecisions) Pass() *hookdv1.ApprovalDecision {
	return &hookdv1.ApprovalDecision{Decision: &hookdv1.ApprovalDecision_Pass{Pass: &hookdv1.Pass{}}}
}

// Approve approves the call once.
func (approvalDecisions) Approve() *hookdv1.ApprovalDecision {
	return &hookdv1.ApprovalDecision{Decision: &hookdv1.ApprovalDecision_Approve{Approve: &hookdv1.Approve{}}}
}

// Reject refuses the call; reason is required.
func (approvalDecisions) Reject(reason string) *hookdv1.ApprovalDecision {
	return &hookdv1.ApprovalDecision{Decision: &hookdv1.ApprovalDecision_Reject{Reject: &hookdv1.Reject{Reason: reason}}}
}
