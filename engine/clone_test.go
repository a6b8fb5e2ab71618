package engine_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
	"pgregory.net/rapid"
)

// drawEvent draws an arbitrary event over a small id pool.
func drawEvent(t *rapid.T, seq int64) event.Event {
	ev := event.Event{Seq: seq, T: seq * 10, ID: rapid.SampledFrom([]string{"a", "b", "c", ""}).Draw(t, "id")}
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0:
		ev.Kind, ev.Role = event.KindTurnStart, "assistant"
	case 1, 2:
		ev.Kind, ev.Text = event.KindText, "x"
	case 3, 4:
		ev.Kind, ev.Name = event.KindToolStart, "grep"
		ev.Batch = rapid.SampledFrom([]string{"", "m"}).Draw(t, "batch")
		ev.Parent = rapid.SampledFrom([]string{"", "", "a"}).Draw(t, "parent")
	case 5:
		ev.Kind, ev.Output = event.KindToolProgress, "o"
	case 6, 7:
		ev.Kind, ev.OK = event.KindToolDone, rapid.Bool().Draw(t, "ok")
	case 8:
		ev.Kind = event.KindCancel
	default:
		ev.Kind = event.KindTurnEnd
	}
	return ev
}

func timelineJSON(e *engine.Engine) string {
	out, _ := json.Marshal(e.Timeline())
	return string(out)
}

// TestClone: a clone taken at any point evolves exactly like the original
// under the same events, and neither affects the other.
func TestClone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "events")
		evs := make([]event.Event, n)
		for i := range evs {
			evs[i] = drawEvent(t, int64(i+1))
		}
		k := rapid.IntRange(0, n).Draw(t, "clone after")
		orig := engine.New(engine.Options{})
		for i := range evs[:k] {
			orig.Apply(&evs[i])
		}
		before := timelineJSON(orig)
		clone := orig.Clone()
		for i := k; i < n; i++ {
			clone.Apply(&evs[i])
		}
		if got := timelineJSON(orig); got != before {
			t.Fatalf("applying events to the clone changed the original:\nbefore %s\nafter  %s", before, got)
		}
		for i := k; i < n; i++ {
			orig.Apply(&evs[i])
		}
		clone.Finish()
		orig.Finish()
		if a, b := timelineJSON(orig), timelineJSON(clone); a != b {
			t.Fatalf("clone diverged from the original after event %d:\norig  %s\nclone %s", k, a, b)
		}
	})
}

// drawWideEvent draws an event of any kind over a small id pool, with
// parents, batches, permissions, updates and delegation details, so that
// copies reach nested items and groups.
func drawWideEvent(t *rapid.T, seq int64) event.Event {
	ids := []string{"a", "b", "c", "d", ""}
	ev := event.Event{Seq: seq, T: seq * 10, ID: rapid.SampledFrom(ids).Draw(t, "id")}
	switch rapid.IntRange(0, 13).Draw(t, "kind") {
	case 0:
		ev.Kind, ev.Role = event.KindTurnStart, rapid.SampledFrom([]string{"assistant", "user"}).Draw(t, "role")
	case 1:
		ev.Kind, ev.Text = event.KindText, "x"
	case 2:
		ev.Kind, ev.Text = event.KindThinking, "y"
	case 3, 4, 5:
		ev.Kind, ev.Name = event.KindToolStart, rapid.SampledFrom([]string{"grep", "TodoWrite"}).Draw(t, "name")
		ev.Batch = rapid.SampledFrom([]string{"", "m", "n"}).Draw(t, "batch")
		ev.Parent = rapid.SampledFrom(append([]string{"", ""}, ids...)).Draw(t, "parent")
	case 6:
		ev.Kind, ev.Output = event.KindToolProgress, "o"
		if rapid.Bool().Draw(t, "details") {
			ev.Details = json.RawMessage(`{"mode":"single","steps":[{"agent":"x","id":"s","status":"running","task":"t"}]}`)
		}
	case 7:
		ev.Kind, ev.Name, ev.Args = event.KindToolUpdate, "bash", json.RawMessage(`{"command":"ls"}`)
	case 8:
		ev.Kind = event.KindPermission
		ev.State = rapid.SampledFrom([]string{event.PermissionAsked, event.PermissionGranted, event.PermissionDenied}).Draw(t, "state")
	case 9, 10:
		ev.Kind, ev.OK, ev.Output = event.KindToolDone, rapid.Bool().Draw(t, "ok"), "r"
	case 11:
		ev.Kind = event.KindCancel
	case 12:
		ev.Kind, ev.Message = event.KindError, "e"
	default:
		ev.Kind = event.KindTurnEnd
	}
	return ev
}

// TestCloneTree: engines cloned from one another at random points, each
// then fed its own events, in any interleaving, always show exactly what a
// fresh engine fed the same events shows — changing one never changes
// another, however much they share — and its render is unchanged by what
// the others do.
func TestCloneTree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		engines := []*engine.Engine{engine.New(engine.Options{})}
		applied := [][]event.Event{nil}
		renders := []string{timelineJSON(engines[0])}
		for step := range rapid.IntRange(1, 80).Draw(t, "steps") {
			i := rapid.IntRange(0, len(engines)-1).Draw(t, "engine")
			if rapid.IntRange(0, 5).Draw(t, "clone") == 0 {
				engines = append(engines, engines[i].Clone())
				applied = append(applied, slices.Clone(applied[i]))
				renders = append(renders, renders[i])
			} else {
				ev := drawWideEvent(t, int64(step+1))
				engines[i].Apply(&ev)
				applied[i] = append(applied[i], ev)
				renders[i] = timelineJSON(engines[i])
			}
			for j, e := range engines {
				if got := timelineJSON(e); got != renders[j] {
					t.Fatalf("engine %d changed without an event of its own (step %d on engine %d):\nwas %s\nnow %s", j, step, i, renders[j], got)
				}
			}
		}
		for j, e := range engines {
			fresh := engine.New(engine.Options{})
			for k := range applied[j] {
				fresh.Apply(&applied[j][k])
			}
			fresh.Finish()
			e.Finish()
			if got, want := timelineJSON(e), timelineJSON(fresh); got != want {
				t.Fatalf("engine %d differs from a fresh engine fed its %d events:\ngot  %s\nwant %s", j, len(applied[j]), got, want)
			}
			if got, want := e.Live(), fresh.Live(); !slices.Equal(got, want) {
				t.Fatalf("engine %d: live %v, want %v", j, got, want)
			}
		}
	})
}

// TestCloneShares: a clone shares the items and tools no event changed
// since; an event copies only what it changes.
func TestCloneShares(t *testing.T) {
	orig := engine.New(engine.Options{})
	evs := []event.Event{{Seq: 1, Kind: event.KindTurnStart, Role: "assistant"}, {Seq: 2, Kind: event.KindText, Text: "hi"}}
	for i := range 100 {
		evs = append(evs, event.Event{Seq: int64(i + 3), Kind: event.KindToolStart, ID: fmt.Sprint("t", i), Name: "read"})
	}
	for i := range evs {
		orig.Apply(&evs[i])
	}
	clone := orig.Clone()
	clone.Apply(&event.Event{Seq: 200, Kind: event.KindToolDone, ID: "t7", OK: true})
	a, b := orig.Timeline().Items, clone.Timeline().Items
	if len(a) != 2 || len(b) != 2 || a[1].Kind != timeline.ItemToolGroup {
		t.Fatalf("want a text item and a group in both, got %d and %d items", len(a), len(b))
	}
	if a[0] != b[0] {
		t.Error("the text item no event changed was copied")
	}
	if a[1] == b[1] {
		t.Fatal("the group the clone changed is still shared")
	}
	for i, tool := range b[1].Tools {
		if shared := tool == a[1].Tools[i]; shared != (i != 7) {
			t.Errorf("tool %d: shared %v, want %v", i, shared, i != 7)
		}
	}
	if got := a[1].Tools[7].Status; got != timeline.StatusRunning {
		t.Errorf("the original's t7 is %s, want running", got)
	}
}
