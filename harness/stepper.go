package harness

import (
	"github.com/toolsim/toolsim/event"
)

// Stepper checks an engine event by event for callers that drive the
// engine themselves (a player, a state machine test): apply an event to
// the engine, then hand the event and the engine to Step, which returns
// the violations that event caused. Finish does the same for the
// end-of-stream rule. Determinism and order independence need the whole
// trace and are left to Check.
type Stepper struct {
	p    *pass
	seen int
}

// NewStepper returns a Stepper with the per-event oracles of opts.
func NewStepper(opts Options) *Stepper {
	return &Stepper{p: newPass(opts)}
}

// Step checks the engine after ev, which the caller has just applied.
func (s *Stepper) Step(ev *event.Event, eng Engine) []Violation {
	s.p.eng = eng
	s.p.model.Apply(ev)
	s.p.observe(ev, eng.Timeline(), false)
	return s.news()
}

// Finish checks the engine after the end-of-stream rule, which the caller
// has just applied; last is the seq of the last event.
func (s *Stepper) Finish(eng Engine, last int64) []Violation {
	s.p.eng = eng
	s.p.model.Finish()
	s.p.observe(&event.Event{Seq: last, Kind: endOfStream}, eng.Timeline(), true)
	return s.news()
}

func (s *Stepper) news() []Violation {
	out := s.p.found[s.seen:]
	s.seen = len(s.p.found)
	return out
}
