package campaign_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// dropEarlyResults loses a result that comes before its call: a bug only
// an upstream that sends results first can reach.
func dropEarlyResults() harness.Engine {
	seen := map[string]bool{}
	return planted.Broken{Engine: engine.New(engine.Options{}), Bend: func(e *engine.Engine, ev *event.Event) {
		if ev.Kind == event.KindToolStart {
			seen[ev.ID] = true
		}
		if ev.Kind == event.KindToolDone && !seen[ev.ID] {
			return
		}
		e.Apply(ev)
	}}
}

// openAfterTurn keeps every call live (running) when its turn ends, as a
// library that leaves client-side tools open does, and as one that loses a
// server-side call's result would.
func openAfterTurn() harness.Engine {
	return planted.ReopenAfter(event.KindTurnEnd, func(live []string) []string { return live })
}

// approvalsOpenAfterTurn keeps each call awaiting approval so when its turn
// ends, as a library whose approvals outlive the response does.
func approvalsOpenAfterTurn() harness.Engine {
	return planted.Wrap(func(e *engine.Engine, ev *event.Event) {
		asked := map[string]bool{}
		for _, it := range e.Timeline().Items {
			it.EachTool(func(t *timeline.Tool) bool {
				asked[t.ID] = asked[t.ID] || t.Status == timeline.StatusPending
				return true
			})
		}
		e.Apply(ev)
		if ev.Kind != event.KindTurnEnd {
			return
		}
		for _, it := range e.Timeline().Items {
			it.EachTool(func(t *timeline.Tool) bool {
				if asked[t.ID] && t.Status == timeline.StatusInterrupted {
					t.Status = timeline.StatusPending
				}
				return true
			})
		}
	})()
}

func executor() harness.Options {
	return harness.Options{Contract: contract.Contract{Guarantees: contract.Executor}}
}

// TestContractKeepsCampaignsInside: under the executor contract the
// planted.Reference engine passes with every fault asked for (those the contract
// rules out are left out, and named), and a bug only outside the contract
// reaches is not reported; robustness mode reports it, labelled.
func TestContractKeepsCampaignsInside(t *testing.T) {
	camp := campaign.Campaign{Seeds: 300, Workers: 2, Sim: sim.Options{Faults: fault.All(), Swarm: true}, Check: executor()}
	rep, err := camp.Run(func() harness.Engine { return engine.New(engine.Options{}) })
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || len(rep.Findings) > 0 {
		t.Fatalf("planted.Reference engine under the executor contract: ok=%v, findings %d, missing %s", rep.OK(), len(rep.Findings), rep.Missing)
	}
	for _, f := range []fault.Fault{fault.ResultBeforeStart, fault.UnknownID, fault.DuplicateResult} {
		if !rep.LeftOut.Has(f) || !strings.Contains(rep.Needs[f], "ruled out by the engine's contract") {
			t.Errorf("fault %s: left out %v, why %q; want it left out by the contract", f, rep.LeftOut.Has(f), rep.Needs[f])
		}
	}

	rep, err = camp.Run(dropEarlyResults)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) > 0 {
		t.Fatalf("a bug outside the contract was reported: %s", rep.Findings[0].Signature)
	}

	camp.Robustness = true
	rep, err = camp.Run(dropEarlyResults)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.New()) == 0 {
		t.Fatal("robustness mode found nothing")
	}
	for _, f := range rep.New() {
		if !strings.HasPrefix(f.Robustness, "robustness: an input the declared upstream does not send: ") {
			t.Errorf("finding %q: robustness label %q", f.Signature, f.Robustness)
		}
		if b := contract.Executor.Check(f.Shrunk.Events); b == nil {
			t.Errorf("finding %q: its repro is inside the contract", f.Signature)
		}
	}
}

// TestDocumentedBehaviourIsSetApart: an engine that keeps approval
// requests open at a turn's end fails; declaring that documented behaviour
// sets those findings apart, and the run passes. An engine that keeps
// calls running at a turn's end still fails with it declared.
func TestDocumentedBehaviourIsSetApart(t *testing.T) {
	for _, screen := range []bool{false, true} {
		t.Run(fmt.Sprintf("screen=%v", screen), func(t *testing.T) { documentedSetApart(t, screen) })
	}
}

// TestOpenAfterTurnLeavesRunningCalls: open-after-turn sets apart no call
// left running, which a signature cannot tell from a lost result.
func TestOpenAfterTurnLeavesRunningCalls(t *testing.T) {
	camp := campaign.Campaign{Seeds: 300, Workers: 2, Sim: sim.Options{Faults: fault.List{fault.MissingResult}, Swarm: true}}
	camp.Check.Contract.Documented = []contract.Behaviour{contract.OpenAfterTurn}
	rep, err := camp.Run(openAfterTurn)
	if err != nil {
		t.Fatal(err)
	}
	running := 0
	for _, f := range rep.New() {
		if strings.HasSuffix(f.Signature, "→ running") {
			running++
		}
	}
	if running == 0 {
		t.Fatalf("with open-after-turn declared, no call left running was reported (%d new findings)", len(rep.New()))
	}
}

// documentedSetApart runs the campaigns of TestDocumentedBehaviourIsSetApart,
// with the screen oracles (whose findings then name the class) or without.
func documentedSetApart(t *testing.T, screen bool) {
	camp := campaign.Campaign{Seeds: 300, Workers: 2, Sim: sim.Options{Faults: fault.List{fault.MissingResult}, Swarm: true}}
	camp.Check.Screen = screen
	rep, err := camp.Run(approvalsOpenAfterTurn)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.New()) == 0 {
		t.Fatal("approval requests left open at a turn's end were not found")
	}
	camp.Check.Contract.Documented = []contract.Behaviour{contract.OpenAfterTurn}
	rep, err = camp.Run(approvalsOpenAfterTurn)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rep.New()); n > 0 {
		t.Fatalf("with open-after-turn declared, %d findings remain, first %q", n, rep.New()[0].Signature)
	}
	documented := 0
	for _, f := range rep.Findings {
		if f.Documented == contract.OpenAfterTurn {
			documented++
		}
	}
	if documented == 0 {
		t.Fatal("no finding marked documented")
	}
}

// TestShrinkCaseStaysInsideContract: a case inside the contract shrinks
// to a repro inside it, where without the contract it shrinks below it
// (the denial shown as failed needs no request, unless answers-asked).
func TestShrinkCaseStaysInsideContract(t *testing.T) {
	evs := []event.Event{
		{Seq: 1, T: 0, Kind: event.KindToolStart, ID: "a", Name: "grep"},
		{Seq: 2, T: 1, Kind: event.KindPermission, ID: "a", State: event.PermissionAsked},
		{Seq: 3, T: 2, Kind: event.KindPermission, ID: "a", State: event.PermissionDenied},
	}
	c := &harness.Case{Events: evs}
	denied := withBugs(plantedBugs[0]) // denied shown as failed
	asked := contract.List{contract.AnswersAsked}
	loose := campaign.ShrinkCase(denied, c, harness.OracleModel, harness.Options{})
	if b := asked.Check(loose.Case.Events); b == nil {
		t.Fatalf("without a contract the shrink kept %d events; the test needs it to leave the contract", len(loose.Case.Events))
	}
	opts := harness.Options{Contract: contract.Contract{Guarantees: asked}}
	got := campaign.ShrinkCase(denied, c, harness.OracleModel, opts)
	if b := asked.Check(got.Case.Events); b != nil {
		t.Fatalf("the shrunk case left the contract: %s", b)
	}
	if got.By.Oracle != harness.OracleModel {
		t.Fatalf("the shrunk case fails %q, want %q", got.By.Oracle, harness.OracleModel)
	}
}
