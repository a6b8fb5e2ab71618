package sim_test

import (
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// seen finds, from the events alone, which shapes a trace holds. It is
// written apart from the generator, so a shape the generator counts but
// does not produce is caught. A trace that starts an id twice is left out
// (ok false): its events pair first-in-first-out, which this reading does
// not follow.
func seen(evs []event.Event) (_ map[sim.Shape]bool, ok bool) {
	out := map[sim.Shape]bool{}
	start := map[string]int{} // id → index of its latest start
	done := map[string]int{}  // id → index of its first result
	denied := map[string]bool{}
	parentOf := map[string]string{}
	interrupted := map[string]bool{}
	asked := map[string]bool{} // permission asked and not answered yet
	starts := map[string]int{}
	for i := range evs {
		if evs[i].Kind == event.KindToolStart {
			if starts[evs[i].ID]++; starts[evs[i].ID] > 1 {
				return nil, false
			}
		}
	}
	for i := range evs {
		ev := &evs[i]
		switch ev.Kind {
		case event.KindToolStart:
			if ev.Parent != "" {
				if parentOf[ev.Parent] != "" {
					out[sim.ShapeNested] = true
				}
				if _, ok := start[ev.Parent]; !ok {
					out[sim.ShapeUnknownParent] = true // never started, or (dangling) starts later
				}
				parentOf[ev.ID] = ev.Parent
			}
			start[ev.ID] = i
		case event.KindToolDone:
			if _, ok := done[ev.ID]; ok {
				break
			}
			done[ev.ID] = i
			if asked[ev.ID] {
				out[sim.ShapeResultWhilePending] = true
			}
			if p := parentOf[ev.ID]; p != "" {
				if d, ok := done[p]; ok && d < i {
					out[sim.ShapeParentFirst] = true
				}
			}
			if s, ok := start[ev.ID]; ok && ev.DurationMS != nil && *ev.DurationMS != ev.T-evs[s].T {
				out[sim.ShapeDurationMismatch] = true
			}
			if s, ok := start[ev.ID]; ok && laterBetween(evs, s, i) {
				out[sim.ShapeLongRunning] = true
			}
		case event.KindPermission:
			asked[ev.ID] = ev.State == event.PermissionAsked
			if ev.State == event.PermissionDenied {
				denied[ev.ID] = true
			}
		case event.KindToolProgress:
			if denied[ev.ID] {
				out[sim.ShapeProgressAfterDenial] = true
			}
			if interrupted[ev.ID] {
				out[sim.ShapeProgressAfterInterrupt] = true
			}
		case event.KindTurnEnd:
			clear(asked)
		case event.KindCancel:
			clear(asked)
			if i > 0 && evs[i-1].Kind == event.KindText {
				out[sim.ShapeCancelInText] = true
			}
			for id := range start {
				if _, ok := done[id]; !ok && !denied[id] {
					interrupted[id] = true
				}
			}
		}
	}
	open := false // a turn started and not ended
	for i := range evs {
		switch evs[i].Kind {
		case event.KindTurnStart:
			open = true
		case event.KindTurnEnd:
			open = false
		}
	}
	if open {
		out[sim.ShapeTruncated] = true
	}
	return out, true
}

// laterBetween reports whether assistant text, or a top-level start of
// another batch, lies between evs[i] (a start) and evs[j].
func laterBetween(evs []event.Event, i, j int) bool {
	for k := i + 1; k < j; k++ {
		ev := &evs[k]
		if ev.Kind == event.KindCancel || ev.Kind == event.KindTurnEnd {
			return false // a late result, not a long-running call
		}
		if ev.Kind == event.KindText || ev.Kind == event.KindToolStart && ev.Parent == "" && ev.Batch != "" && ev.Batch != evs[i].Batch {
			return true
		}
	}
	return false
}

// TestShapesLand: over 2000 default seeds every shape lands at least 20
// times, and a scenario that counts a shape holds it (as far as the events
// alone show it: an unknown or dangling parent both show as a parent not
// started yet, and spread and adjacent batches are counted by the
// generator only).
func TestShapesLand(t *testing.T) {
	total := map[string]int{}
	for seed := range uint64(2000) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true})
		have, ok := seen(sc.Events)
		for name, n := range sc.Shapes {
			total[name] += n
			if !ok {
				continue
			}
			s := sim.Shape(name)
			switch s {
			case sim.ShapeDanglingParent:
				s = sim.ShapeUnknownParent
			case sim.ShapeSpreadStarts, sim.ShapeAdjacentBatches:
				continue
			case sim.ShapeLongRunning:
				if !sc.BatchIDs {
					continue // across a batch without ids: the events cannot tell
				}
			}
			if n > 0 && !have[s] {
				t.Errorf("seed %d: counted %s, but the events do not show it", seed, name)
			}
		}
	}
	for _, s := range sim.AllShapes {
		if total[string(s)] < 20 {
			t.Errorf("shape %s landed %d times in 2000 seeds, want ≥ 20", s, total[string(s)])
		}
	}
	t.Logf("shapes in 2000 seeds: %v", total)
}

// TestShapesOff: with no shapes and no faults, nothing of the shapes
// appears.
func TestShapesOff(t *testing.T) {
	for seed := range uint64(300) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true, Shapes: []sim.Shape{}})
		if len(sc.Shapes) > 0 {
			t.Fatalf("seed %d: shapes off, counted %v", seed, sc.Shapes)
		}
		have, _ := seen(sc.Events)
		for s := range have {
			if s != sim.ShapeUnknownParent && s != sim.ShapeProgressAfterDenial && s != sim.ShapeParentFirst {
				t.Fatalf("seed %d: shapes off, the events show %s", seed, s)
			}
		}
	}
	for seed := range uint64(300) {
		sc := sim.Generate(seed, sim.Options{Swarm: true})
		have, _ := seen(sc.Events)
		for s := range have {
			if s == sim.ShapeUnknownParent || s == sim.ShapeProgressAfterDenial {
				t.Fatalf("seed %d: no faults, the events show the anomaly %s", seed, s)
			}
		}
	}
}
