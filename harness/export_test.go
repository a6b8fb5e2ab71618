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
