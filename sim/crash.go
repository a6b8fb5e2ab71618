package sim

import (
	"math/rand/v2"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// crashStream is the PCG stream of the crash fault's draws. The fault
// draws from a generator of its own, seeded by the seed, so that adding
// it to a fault list leaves every other draw of every seed (and so every
// trace, and every baseline written before it) as it was.
const crashStream = 0xc7a5_4001

// crashRNG is the crash fault's generator for one seed: its first draw
// is the swarm coin, its second the crash point.
func crashRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, crashStream)) }

// crashOn reports whether the crash fault is switched on for a seed whose
// Options.Faults holds it: always, or under Swarm on its own coin.
func crashOn(seed uint64, o Options) bool {
	if !o.Features.Usable(fault.Crash) || o.Contract.RulesOut(fault.Crash) {
		return false
	}
	return !o.Swarm || crashRNG(seed).IntN(2) == 0
}

// drawCrash places the crash: a k drawn among CrashPoints(evs), or 0
// when no tool ever runs. Its draws come from the seed, not from
// GenerateFrom's source, so a fuzzer's bytes do not steer it.
func drawCrash(seed uint64, evs []event.Event) int {
	points := CrashPoints(evs)
	if len(points) == 0 {
		return 0
	}
	rng := crashRNG(seed)
	rng.IntN(2) // the swarm coin's draw, taken or not
	return points[rng.IntN(len(points))]
}

// CrashPoints lists every k (1 ≤ k ≤ len(evs)) such that after the first
// k events some tool runs: it started, got no result and was not denied,
// and its turn was neither cancelled nor ended. These are the points where the crash fault
// may kill an engine's process.
func CrashPoints(evs []event.Event) []int {
	var points []int
	live := map[string]int{}
	for i := range evs {
		ev := &evs[i]
		switch ev.Kind {
		case event.KindToolStart:
			live[ev.ID]++
		case event.KindToolDone:
			if live[ev.ID]--; live[ev.ID] <= 0 {
				delete(live, ev.ID)
			}
		case event.KindPermission:
			if ev.State != event.PermissionDenied {
				break
			}
			if live[ev.ID]--; live[ev.ID] <= 0 {
				delete(live, ev.ID)
			}
		case event.KindCancel, event.KindTurnEnd:
			clear(live)
		}
		if len(live) > 0 {
			points = append(points, i+1)
		}
	}
	return points
}
