package campaign

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign/internal/regress"
	"github.com/toolsim/toolsim/sim/tracemeta"
)

// Header is the header toolsim writes on a trace of failure f (cs is its
// case or its shrunk form): the campaign's generator options, or the
// ordering's index for an exhaustive run, the case's reconstruction
// settings, and the oracle that failed. `toolsim check` reads it back.
func (c Campaign) Header(f *Failure, cs *harness.Case) *event.Header {
	m := tracemeta.Meta{Oracle: f.Violation.Oracle}
	source := tracemeta.SourceSim
	if f.Exhaustive {
		source, m.Ordering = tracemeta.SourceExhaustive, int64(f.Seed)
	} else {
		m.Faults, m.Swarm, m.Tools, m.Turns = c.Sim.Faults.String(), c.Sim.Swarm, c.Sim.Tools, c.Sim.Turns
	}
	return tracemeta.Header(source, f.Seed, m.With(replayOf(cs)))
}

// Save writes failure f where a person can pick it up: base.jsonl (the
// failing trace) and, when it was shrunk, base.min.jsonl, a
// ready-to-commit testscript scenario fuzz-NAME.txtar and its reference
// render fuzz-NAME.w80.golden beside them. check is the command the
// scenario runs on the trace ("toolsim check --engine …"). It returns
// the paths written. toolsim fuzz and Fuzz save failures this way.
func (c Campaign) Save(base string, f *Failure, check string) ([]string, error) {
	r := regress.Regression{Seed: f.Seed, Oracle: f.Violation.Oracle, Detail: f.ShrunkBy.Detail,
		Trace: regress.Trace{Header: c.Header(f, f.Case), Events: f.Case.Events}}
	if f.Shrunk != nil {
		r.Shrunk = &regress.Trace{Header: c.Header(f, f.Shrunk), Events: f.Shrunk.Events}
	}
	return regress.Save(base, r, check)
}

// Header is the header toolsim writes on a shrunk trace: its
// reconstruction settings, the oracle it fails, and the faults of the
// domain it stayed in.
func (s Shrunk) Header() *event.Header {
	m := tracemeta.Meta{Oracle: s.By.Oracle}
	if s.Kept != nil {
		m.Faults = s.Kept.Faults.String()
	}
	return tracemeta.Header(tracemeta.SourceShrink, 0, m.With(replayOf(s.Case)))
}

// Save writes the shrunk trace to path, with its testscript scenario and
// golden beside it (toolsim shrink -o); check is the command the
// scenario runs on it. It returns the paths written.
func (s Shrunk) Save(path, check string) ([]string, error) {
	return regress.SaveShrunk(path, regress.Regression{Oracle: s.By.Oracle, Detail: s.By.Detail,
		Shrunk: &regress.Trace{Header: s.Header(), Events: s.Case.Events}}, check)
}
