package campaign

import (
	"math/rand/v2"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// mutate applies one of the simulator's faults to evs where it lands, as
// a guided campaign's mutants do (guide.go): it drops an event, starts a
// started id again, sends a result twice (its outcome flipped half the
// time), asks a call's permission and answers it, or swaps two adjacent
// events. It returns the events and the fault it applied: reused-id-batch
// for a start sent again, duplicate-result for a result, order for two
// results of different calls swapped, and "" for anything else (a drop, a
// permission, a swap that reorders no results, a fault that found no
// place).
func mutate(evs []event.Event, rng *rand.Rand) ([]event.Event, fault.Fault) {
	if len(evs) == 0 {
		return evs, ""
	}
	switch rng.IntN(5) {
	case 0:
		at := rng.IntN(len(evs))
		return slices.Delete(evs, at, at+1), ""
	case 1:
		return again(evs, rng, event.KindToolStart, fault.ReusedIDBatch, func(e *event.Event) {})
	case 2:
		return again(evs, rng, event.KindToolDone, fault.DuplicateResult, func(e *event.Event) {
			if rng.IntN(2) == 0 {
				flip(e)
			}
		})
	case 3:
		return permission(evs, rng), ""
	default:
		at := rng.IntN(len(evs))
		if at+1 >= len(evs) {
			return evs, ""
		}
		evs[at], evs[at+1] = evs[at+1], evs[at]
		a, b := &evs[at], &evs[at+1]
		if a.Kind == event.KindToolDone && b.Kind == event.KindToolDone && a.ID != b.ID {
			return evs, fault.Order
		}
		return evs, ""
	}
}

// flip turns a result's outcome over.
func flip(e *event.Event) {
	e.OK = !e.OK
	e.Error = ""
	if !e.OK {
		e.Error = "exit status 1"
	}
}

// again picks an event of kind and sends a copy of it, changed by edit,
// at a later place in its turn: fault f, unless no event is of kind.
func again(evs []event.Event, rng *rand.Rand, kind event.Kind, f fault.Fault, edit func(*event.Event)) ([]event.Event, fault.Fault) {
	at := pickKind(evs, rng, kind)
	if at < 0 {
		return evs, ""
	}
	cp := evs[at]
	edit(&cp)
	return slices.Insert(evs, later(evs, rng, at, nil), cp), f
}

// permission asks a started call's permission after its start and
// before its result, and half the time grants or denies it before the
// result too.
func permission(evs []event.Event, rng *rand.Rand) []event.Event {
	at := pickKind(evs, rng, event.KindToolStart)
	if at < 0 {
		return evs
	}
	id := evs[at].ID
	ask := event.Event{T: evs[at].T, Kind: event.KindPermission, ID: id, State: "asked"}
	pos := later(evs, rng, at, resultOf(id))
	evs = slices.Insert(evs, pos, ask)
	if rng.IntN(2) == 0 {
		answer := ask
		answer.State = []string{"granted", "denied"}[rng.IntN(2)]
		evs = slices.Insert(evs, later(evs, rng, pos, resultOf(id)), answer)
	}
	return evs
}

// resultOf is a later's bound: id's result.
func resultOf(id string) func(*event.Event) bool {
	return func(e *event.Event) bool { return e.Kind == event.KindToolDone && e.ID == id }
}

// pickKind returns the index of a random event of kind, or -1.
func pickKind(evs []event.Event, rng *rand.Rand, kind event.Kind) int {
	var at []int
	for i := range evs {
		if evs[i].Kind == kind {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return -1
	}
	return at[rng.IntN(len(at))]
}

// later returns a place after index at and no later than its turn's end,
// or than the first event until holds for (nil: none).
func later(evs []event.Event, rng *rand.Rand, at int, until func(*event.Event) bool) int {
	end := at + 1
	for end < len(evs) && evs[end].Kind != event.KindTurnEnd && (until == nil || !until(&evs[end])) {
		end++
	}
	return at + 1 + rng.IntN(end-at)
}

// renumber makes evs' seqs 1, 2, ... and their times non-decreasing.
func renumber(evs []event.Event) {
	for i := range evs {
		evs[i].Seq = int64(i + 1)
		if i > 0 && evs[i].T < evs[i-1].T {
			evs[i].T = evs[i-1].T
		}
	}
}
