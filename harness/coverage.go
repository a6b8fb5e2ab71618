package harness

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
)

// States lists the names of the states and rules a campaign's coverage
// table counts (the rule inventory of docs/simulator.md), in report order.
var States = model.States

// statesOf counts the states and rules a trace reaches, judged by the
// harness model before each event applies.
func statesOf(evs []event.Event, opts Options, hit map[string]int) {
	m := model.New(model.Config{MetaTools: opts.metaTools(), NoGrouping: opts.NoGrouping})
	count := func(s string) { hit[s]++ }
	for i := range evs {
		m.States(&evs[i], count)
		m.Apply(&evs[i])
	}
	m.FinishStates(count)
}
