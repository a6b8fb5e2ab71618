package campaign

import (
	"fmt"
	"io"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/model"
)

// states lists the names of the states and rules a campaign's coverage
// table counts (the rule inventory of docs/simulator.md), in report order.
var states = model.States

// statesOf counts the states and rules a trace reaches, judged by the
// harness model before each event applies.
func statesOf(evs []event.Event, opts harness.Options, hit map[string]int) {
	m := model.New(model.Config{MetaTools: model.MetaTools(opts.MetaTools), NoGrouping: opts.NoGrouping, ToolRows: opts.ToolRows})
	count := func(s string) { hit[s]++ }
	for i := range evs {
		m.States(&evs[i], count)
		m.Apply(&evs[i])
	}
	m.FinishStates(count)
}

// WriteCoverage writes the run's coverage table: how often each fault of
// faults was injected (those the run left out, and why, after them) and
// each state or rule of the inventory was reached. A zero is marked.
func (r *Report) WriteCoverage(w io.Writer, faults fault.List) {
	fmt.Fprintln(w, "fault class                 injected")
	for _, f := range faults {
		if r.LeftOut.Has(f) {
			continue
		}
		mark := ""
		if r.Faults[f] == 0 {
			mark = "   ← never reached"
		}
		fmt.Fprintf(w, "  %-25s %8d%s\n", f, r.Faults[f], mark)
	}
	for _, f := range r.LeftOut {
		fmt.Fprintf(w, "  %-25s %8s   ← left out: %s\n", f, "-", r.Needs[f])
	}
	fmt.Fprintln(w, "state or rule                                 reached")
	for _, s := range states {
		f, named := namedBy[s]
		switch {
		case named && r.LeftOut.Has(f) && r.States[s] == 0:
			fmt.Fprintf(w, "  %-43s %7s   ← left out with %s\n", s, "-", f)
		case named && r.LeftOut.Has(f):
			fmt.Fprintf(w, "  %-43s %7d   (without %s, which is left out: the plain flow or another fault leads here too)\n", s, r.States[s], f)
		default:
			fmt.Fprintf(w, "  %-43s %7d\n", s, r.States[s])
		}
	}
}

// namedBy maps the states and rules that a fault is named after to that
// fault: the coverage table says when the fault was left out, so that a
// state it names is never shown reached, or at 0, without a word.
var namedBy = map[string]fault.Fault{
	model.StateResultAfterCancel: fault.LateResult, model.StateResultAfterEnd: fault.LateResult,
	model.StateResultFirst: fault.ResultBeforeStart, model.StateDuplicateResult: fault.DuplicateResult,
	model.StateProgressAfter: fault.ProgressAfterResult, model.StateLiveIDReused: fault.ReusedIDBatch,
	model.RuleIDReusedAfterEnd: fault.ReusedIDTurns, model.RuleMissingID: fault.EmptyID,
	model.StateTurnEndLive: fault.MissingResult, model.RuleUnknownProgress: fault.UnknownID,
	model.RuleUnknownResultAtTurnEnd: fault.UnknownID, model.RuleUnknownResultAtEnd: fault.UnknownID,
}
