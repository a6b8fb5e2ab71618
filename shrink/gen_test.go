package shrink_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// gen builds synthetic traces: user and assistant turns, thinking and text,
// batches of parallel tools with children, permissions, interleaved
// progress and dones. It is deterministic for a seed.
type gen struct {
	r   *rand.Rand
	evs []event.Event
	t   int64
	ids int
}

// genTrace returns a well-formed trace of whole turns with at least n
// events.
func genTrace(n int, seed uint64) []event.Event {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x5eed))}
	for len(g.evs) < n {
		g.turn()
	}
	return g.evs
}

func (g *gen) add(ev event.Event) {
	g.t += int64(g.r.IntN(40))
	ev.Seq, ev.T = int64(len(g.evs)+1), g.t
	g.evs = append(g.evs, ev)
}

// words contains neither "x" nor "needle", which tests look for.
var words = strings.Fields("read file patch test build go module line value parse write check run tool diff")

func (g *gen) words(n int) string {
	w := make([]string, 1+g.r.IntN(n))
	for i := range w {
		w[i] = words[g.r.IntN(len(words))]
	}
	return strings.Join(w, " ")
}

func (g *gen) turn() {
	g.add(event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	g.add(event.Event{Kind: event.KindUser, Text: g.words(8)})
	g.add(event.Event{Kind: event.KindTurnEnd})
	g.add(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
	g.add(event.Event{Kind: event.KindThinking, Text: g.words(12)})
	for range 1 + g.r.IntN(3) {
		g.add(event.Event{Kind: event.KindText, Text: g.words(10)})
		g.batch()
	}
	g.add(event.Event{Kind: event.KindTurnEnd})
}

func (g *gen) start(parent, batch string) string {
	g.ids++
	id := fmt.Sprintf("call_%04d", g.ids)
	names := []string{"bash", "read_file", "edit", "grep"}
	g.add(event.Event{
		Kind: event.KindToolStart, ID: id, Name: names[g.r.IntN(len(names))],
		Args:  fmt.Appendf(nil, `{"path":"/src/file%d.go","n":%d}`, g.ids, g.r.IntN(100)),
		Batch: batch, Parent: parent,
	})
	return id
}

// batch starts one to three tools (sometimes with a child of the first),
// interleaves their progress, then finishes them, children first.
func (g *gen) batch() {
	batch := fmt.Sprintf("batch_%d", g.ids)
	var ids []string
	for range 1 + g.r.IntN(3) {
		ids = append(ids, g.start("", batch))
	}
	if g.r.IntN(3) == 0 {
		ids = append(ids, g.start(ids[0], ""))
	}
	if g.r.IntN(4) == 0 {
		g.add(event.Event{Kind: event.KindPermission, ID: ids[0], State: event.PermissionAsked})
		g.add(event.Event{Kind: event.KindPermission, ID: ids[0], State: event.PermissionGranted})
	}
	for p := range g.r.IntN(4) {
		for _, id := range ids {
			g.add(event.Event{Kind: event.KindToolProgress, ID: id, Output: g.words(4) + "\n",
				Details: fmt.Appendf(nil, `{"pct":%d}`, 25*(p+1))})
		}
	}
	for i := len(ids) - 1; i >= 0; i-- {
		d := int64(g.r.IntN(900))
		g.add(event.Event{Kind: event.KindToolDone, ID: ids[i], OK: true, Output: g.words(6), DurationMS: &d})
	}
}

// insert returns a copy of evs with ev at index i, taking the t of its
// predecessor, renumbered.
func insert(evs []event.Event, i int, ev event.Event) []event.Event {
	out := slices.Insert(slices.Clone(evs), i, ev)
	out[i].T = 0
	if i > 0 {
		out[i].T = out[i-1].T
	}
	for j := range out {
		out[j].Seq = int64(j + 1)
	}
	return out
}

// orphanDone reports a tool_done whose id was never started before it.
func orphanDone(evs []event.Event) bool {
	started := map[string]bool{}
	for i := range evs {
		switch ev := &evs[i]; ev.Kind {
		case event.KindToolStart:
			started[ev.ID] = true
		case event.KindToolDone:
			if !started[ev.ID] {
				return true
			}
		}
	}
	return false
}

// cancelTwoOpen reports a cancel while two or more tools are started and
// not done.
func cancelTwoOpen(evs []event.Event) bool {
	open := map[string]bool{}
	for i := range evs {
		switch ev := &evs[i]; ev.Kind {
		case event.KindToolStart:
			open[ev.ID] = true
		case event.KindToolDone:
			delete(open, ev.ID)
		case event.KindCancel:
			if len(open) >= 2 {
				return true
			}
		}
	}
	return false
}

// openAt returns the first index at or after from before which at least
// two tools are open, or -1.
func openAt(evs []event.Event, from int) int {
	open := map[string]bool{}
	for i := range evs {
		if i >= from && len(open) >= 2 {
			return i
		}
		switch ev := &evs[i]; ev.Kind {
		case event.KindToolStart:
			open[ev.ID] = true
		case event.KindToolDone:
			delete(open, ev.ID)
		}
	}
	return -1
}

// toolsWellFormed reports whether every tool id starts once, before any
// other event of it, and is done exactly once by the end of the trace.
func toolsWellFormed(evs []event.Event) bool {
	state := map[string]int{} // 1 started, 2 done
	for i := range evs {
		ev := &evs[i]
		switch ev.Kind {
		case event.KindToolStart:
			if state[ev.ID] != 0 {
				return false
			}
			state[ev.ID] = 1
		case event.KindToolProgress, event.KindPermission, event.KindToolDone:
			if state[ev.ID] != 1 {
				return false
			}
			if ev.Kind == event.KindToolDone {
				state[ev.ID] = 2
			}
		}
	}
	for _, s := range state {
		if s != 2 {
			return false
		}
	}
	return true
}

// turnsWellFormed reports whether every event lies inside a turn and
// turns neither nest nor stay open.
func turnsWellFormed(evs []event.Event) bool {
	in := false
	for i := range evs {
		switch evs[i].Kind {
		case event.KindTurnStart:
			if in {
				return false
			}
			in = true
		case event.KindTurnEnd:
			if !in {
				return false
			}
			in = false
		default:
			if !in {
				return false
			}
		}
	}
	return !in
}

// deepCopy copies evs without sharing byte slices or pointers.
func deepCopy(evs []event.Event) []event.Event {
	out := slices.Clone(evs)
	for i := range out {
		out[i].Args = slices.Clone(out[i].Args)
		out[i].Details = slices.Clone(out[i].Details)
		if d := out[i].DurationMS; d != nil {
			v := *d
			out[i].DurationMS = &v
		}
		out[i].Extra = slices.Clone(out[i].Extra)
		for j := range out[i].Extra {
			out[i].Extra[j].Value = slices.Clone(out[i].Extra[j].Value)
		}
	}
	return out
}
