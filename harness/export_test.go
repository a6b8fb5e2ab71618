package harness

import "github.com/toolsim/toolsim/event"

// ReversedForTest is the order oracle's reordering of a trace, read from
// src (SliceSource, or a stream), reusing the values it hands out when
// reuse is set.
func ReversedForTest(src Source, reuse bool) []event.Event {
	r := newReversing(src)
	if reuse {
		r.reuseValues()
	}
	out, err := drain(r)
	if err != nil {
		panic(err)
	}
	return out
}

// SetKeptCopies sets how many item indexes the incremental oracle keeps
// as copies, and returns what restores it.
func SetKeptCopies(n int) (restore func()) {
	old := keptCopies
	keptCopies = n
	return func() { keptCopies = old }
}
