// The stream-contract scenarios at approval (see ../python/conformance_plugin.py): slow and fast,
// two calls of one "pair" in flight together and answered in the reverse order, and
// await-cancel, which records its arrival and, once the daemon cancels it, why.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	hookdv1 "github.com/hookd-dev/hookd/sdk-go/gen/hookd/v1"
	"github.com/hookd-dev/hookd/sdk-go/hookd"
)

// rendezvous holds the moments of paired calls: one call reaches a moment, another waits for it.
type rendezvous struct {
	mu      sync.Mutex
	moments map[[2]string]chan struct{}
}

var pairs = &rendezvous{moments: map[[2]string]chan struct{}{}}

func (r *rendezvous) moment(pair, name string) chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := [2]string{pair, name}
	if _, ok := r.moments[key]; !ok {
		r.moments[key] = make(chan struct{})
	}
	return r.moments[key]
}

func (r *rendezvous) reach(pair, name string) {
	moment := r.moment(pair, name)
	r.mu.Lock()
	defer r.mu.Unlock()
	select {
	case <-moment:
	default:
		close(moment)
	}
}

// wait returns once the moment is reached, or the call's context error when it ends first.
func (r *rendezvous) wait(ctx context.Context, pair, name string) error {
	select {
	case <-r.moment(pair, name):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func pairOfCall(call *hookdv1.ToolCall) string {
	var args struct {
		Pair string `json:"pair"`
	}
	if json.Unmarshal([]byte(call.GetArgumentsJson()), &args) != nil {
		return ""
	}
	return args.Pair
}

// streamContract acts out the stream-contract scenarios; handled is false for every other scenario.
func streamContract(ctx context.Context, scenario string, ev *hookdv1.ApprovalEvent) (decision *hookdv1.ApprovalDecision, handled bool, err error) {
	pair := pairOfCall(ev.GetCall())
	switch scenario {
	case "slow":
		pairs.reach(pair, "slow in flight")
		if err := pairs.wait(ctx, pair, "fast answered"); err != nil {
			return nil, true, err
		}
		return hookd.Approval.Reject("conformance: slow, answered after fast by " + lang), true, nil
	case "fast":
		if err := pairs.wait(ctx, pair, "slow in flight"); err != nil {
			return nil, true, err
		}
		// As the handler returns, just before the SDK writes the answer: slow's answer is then
		// written after it in practice, and the row's assertion holds in either order.
		defer pairs.reach(pair, "fast answered")
		return hookd.Approval.Reject("conformance: fast, answered before slow by " + lang), true, nil
	case "await-cancel":
		if err := recordAs("received", "approval", ev.GetSession(), map[string]any{}); err != nil {
			return nil, true, err
		}
		<-ctx.Done()
		reason := "cancelled"
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			reason = "deadline"
		}
		if err := recordAs("cancel", "approval", ev.GetSession(), map[string]any{"reason": reason}); err != nil {
			return nil, true, err
		}
		return nil, true, ctx.Err() // a cancelled call is never answered
	}
	return nil, false, nil
}
