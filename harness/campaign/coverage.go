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
		fmt.Fprintf(w, "  %-43s %7d\n", s, r.States[s])
	}
}
