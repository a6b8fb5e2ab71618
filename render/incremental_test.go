package render_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"pgregory.net/rapid"
)

// anyEvent draws an arbitrary event over a small id pool, anomalies
// included, so that the engine meets every path.
func anyEvent(t *rapid.T, seq, now int64) event.Event {
	id := rapid.SampledFrom([]string{"a", "b", "c", "d", ""}).Draw(t, "id")
	ev := event.Event{Seq: seq, T: now, ID: id}
	switch k := rapid.IntRange(0, 13).Draw(t, "kind"); k {
	case 0:
		ev.Kind, ev.Role = event.KindTurnStart, rapid.SampledFrom([]string{"assistant", "user"}).Draw(t, "role")
	case 1, 2:
		ev.Kind, ev.Text = event.KindText, rapid.SampledFrom([]string{"hi ", "日本語 ", "a\nb", "long words here "}).Draw(t, "text")
	case 3:
		ev.Kind, ev.Text = event.KindThinking, rapid.SampledFrom([]string{"hmm", " \n"}).Draw(t, "thinking")
	case 4, 5:
		ev.Kind, ev.Name = event.KindToolStart, rapid.SampledFrom([]string{"grep", "bash", "todowrite", "task"}).Draw(t, "name")
		ev.Args = json.RawMessage(`{"command":"go test ./...","path":"src/"}`)
		ev.Batch = rapid.SampledFrom([]string{"", "", "m1", "m2"}).Draw(t, "batch")
		ev.Parent = rapid.SampledFrom([]string{"", "", "", "a"}).Draw(t, "parent")
	case 6:
		ev.Kind, ev.Output = event.KindToolProgress, "out\n"
		if rapid.Bool().Draw(t, "details") {
			ev.Details = json.RawMessage(`{"ui":{"kind":"agent_delegation","mode":"chain","items":[{"id":"1","agent":"x","task":"y","status":"running"}]}}`)
		}
	case 7, 8:
		ev.Kind, ev.OK, ev.Error, ev.Output = event.KindToolDone, rapid.Bool().Draw(t, "ok"), "boom", "done\n"
	case 9:
		ev.Kind, ev.State = event.KindPermission, rapid.SampledFrom([]string{"asked", "granted", "denied"}).Draw(t, "state")
	case 10:
		ev.Kind = event.KindCancel
	case 11:
		ev.Kind, ev.Name, ev.Args = event.KindToolUpdate, "Terminal", json.RawMessage(`{"command":"make \u001b[31mlint"}`)
	case 12:
		ev.Kind, ev.Text = event.KindCompact, rapid.SampledFrom([]string{"", "  ", "Summary:\n1. x"}).Draw(t, "summary")
	default:
		ev.Kind = event.KindTurnEnd
	}
	return ev
}

// TestIncrementalEqualsFresh is SPEC §5.9: after every event, the
// incrementally updated render equals a fresh render of the same timeline.
func TestIncrementalEqualsFresh(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opts := render.Options{Width: rapid.IntRange(10, 120).Draw(t, "width"), Output: rapid.Bool().Draw(t, "output"),
			Ended: rapid.Bool().Draw(t, "ended"), SyntheticClock: rapid.Bool().Draw(t, "synthetic")}
		eng := engine.New(engine.Options{})
		inc := render.NewIncremental(opts)
		now := int64(0)
		n := rapid.IntRange(1, 60).Draw(t, "events")
		for i := 1; i <= n; i++ {
			now += rapid.Int64Range(0, 1500).Draw(t, "dt")
			ev := anyEvent(t, int64(i), now)
			eng.Apply(&ev)
			if got, want := string(inc.Bytes(eng.Timeline())), render.Render(eng.Timeline(), opts); got != want {
				t.Fatalf("after event %d (%s %s): incremental render differs\nincremental:\n%s\nfresh:\n%s", i, ev.Kind, ev.ID, got, want)
			}
		}
		eng.Finish()
		if got, want := inc.Render(eng.Timeline()), render.Render(eng.Timeline(), opts); got != want {
			t.Fatalf("after Finish: incremental render differs\nincremental:\n%s\nfresh:\n%s", got, want)
		}
	})
}

// TestIncrementalReusesItems checks the cache is used: an item whose version
// did not move is not re-rendered (observed through a doctored timeline).
func TestIncrementalReusesItems(t *testing.T) {
	eng := engine.New(engine.Options{})
	evs := []event.Event{
		{Seq: 1, Kind: event.KindTurnStart, Role: "assistant"},
		{Seq: 2, Kind: event.KindText, Text: "before"},
		{Seq: 3, Kind: event.KindToolStart, ID: "a", Name: "bash"},
	}
	for i := range evs {
		eng.Apply(&evs[i])
	}
	inc := render.NewIncremental(render.Options{Width: 80})
	first := inc.Render(eng.Timeline())
	eng.Timeline().Items[0].Text = "changed behind the engine's back"
	if got := inc.Render(eng.Timeline()); got != first {
		t.Errorf("an item with an unchanged version was re-rendered:\n%s", got)
	}
	eng.Timeline().Items[0].Version++
	if got := inc.Render(eng.Timeline()); got == first {
		t.Error("an item whose version moved was not re-rendered")
	}
}
