package harness

import "github.com/toolsim/toolsim/event"

// ReversedForTest is the order oracle's reordering of a trace.
func ReversedForTest(evs []event.Event) []event.Event {
	out, err := drain(newReversing(SliceSource(evs)))
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
