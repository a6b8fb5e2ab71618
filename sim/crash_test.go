package sim_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

func TestCrashPoints(t *testing.T) {
	start := func(id string) event.Event { return event.Event{Kind: event.KindToolStart, ID: id, Name: "read"} }
	done := func(id string) event.Event { return event.Event{Kind: event.KindToolDone, ID: id} }
	turn := event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant}
	tests := []struct {
		name string
		evs  []event.Event
		want []int
	}{
		{"no tools", []event.Event{turn, {Kind: event.KindText, Text: "hi"}, {Kind: event.KindTurnEnd}}, nil},
		{"one call, answered", []event.Event{turn, start("a"), done("a"), {Kind: event.KindTurnEnd}}, []int{2}},
		{"two calls overlap", []event.Event{turn, start("a"), start("b"), done("b"), done("a")}, []int{2, 3, 4}},
		{"a cancel ends them", []event.Event{turn, start("a"), {Kind: event.KindCancel}, done("a")}, []int{2}},
		{"a turn end ends them", []event.Event{turn, start("a"), {Kind: event.KindTurnEnd}}, []int{2}},
		{"a denial ends one", []event.Event{turn, start("a"), {Kind: event.KindPermission, ID: "a", State: event.PermissionDenied}}, []int{2}},
		{"an unanswered call to the end", []event.Event{turn, start("a")}, []int{2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, sim.CrashPoints(tt.evs)); diff != "" {
				t.Errorf("CrashPoints (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCrashOwnStream: the crash fault draws from a stream of its own, so
// adding it to a fault list changes no event of any seed, with or
// without swarm; where it lands, some tool runs after the crash point.
func TestCrashOwnStream(t *testing.T) {
	var noCrash fault.List
	for _, f := range fault.All() {
		if f != fault.Crash {
			noCrash = append(noCrash, f)
		}
	}
	for _, swarm := range []bool{false, true} {
		landed := 0
		for seed := uint64(1); seed <= 300; seed++ {
			without := sim.Generate(seed, sim.Options{Faults: noCrash, Swarm: swarm})
			with := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: swarm})
			if diff := cmp.Diff(without.Events, with.Events); diff != "" {
				t.Fatalf("swarm %v seed %d: adding crash changed the events (-without +with):\n%s", swarm, seed, diff)
			}
			if without.CrashAt != 0 {
				t.Fatalf("swarm %v seed %d: a crash point without the crash fault", swarm, seed)
			}
			if k := with.CrashAt; k > 0 {
				landed++
				if !slices.Contains(sim.CrashPoints(with.Events), k) || with.Injected[fault.Crash] != 1 {
					t.Fatalf("swarm %v seed %d: crash at %d, not a point where a tool runs %v (injected %d)", swarm, seed, k, sim.CrashPoints(with.Events), with.Injected[fault.Crash])
				}
			}
		}
		if landed < 100 {
			t.Errorf("swarm %v: the crash landed in %d of 300 seeds, want at least 100", swarm, landed)
		}
	}
}
