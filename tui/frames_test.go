package tui_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
	"github.com/toolsim/toolsim/tui"
)

// refFrame is what a sequential replay shows after some events.
type refFrame struct {
	tail       string // the last lines of the render, joined
	diags      []timeline.Diagnostic
	totalDiags int
	live       int
}

// replayFrames replays evs once, recording every frame's tail of depth
// lines at a width.
func replayFrames(evs []event.Event, width, depth int) []refFrame {
	e := engine.New(engine.Options{})
	inc := render.NewIncremental(render.Options{Width: width})
	out := []refFrame{{}}
	for i := range evs {
		n := len(e.Timeline().Diagnostics)
		e.Apply(&evs[i])
		tl := e.Timeline()
		lines := renderLines(inc.Render(tl))
		out = append(out, refFrame{
			tail:       strings.Join(lines[max(0, len(lines)-depth):], "\n"),
			diags:      slices.Clone(tl.Diagnostics[n:]),
			totalDiags: len(tl.Diagnostics),
			live:       len(e.Live()),
		})
	}
	return out
}

// checkFrame compares a store's frame with the replay's.
func checkFrame(t *testing.T, f *tui.Frame, want refFrame) {
	t.Helper()
	var texts []string
	for _, l := range f.Lines {
		texts = append(texts, l.Text)
	}
	if diff := cmp.Diff(want.tail, strings.Join(texts, "\n")); diff != "" {
		t.Fatalf("frame %d render (-replay +store):\n%s", f.N, diff)
	}
	if f.N == 0 {
		return
	}
	if diff := cmp.Diff(want.diags, f.Diags); diff != "" {
		t.Fatalf("frame %d diagnostics (-replay +store):\n%s", f.N, diff)
	}
	if f.TotalDiags != want.totalDiags || f.Live != want.live {
		t.Fatalf("frame %d: %d diagnostics, %d live; want %d, %d", f.N, f.TotalDiags, f.Live, want.totalDiags, want.live)
	}
	if len(f.Violations) > 0 {
		t.Fatalf("frame %d: the reference engine fails oracles: %v", f.N, f.Violations)
	}
}

// TestStoreMatchesReplay visits the frames of simulator traces in a random
// order, from checkpoints (built in the background or not at all), and
// compares each with a sequential replay.
func TestStoreMatchesReplay(t *testing.T) {
	tests := []struct {
		name        string
		seed        uint64
		every       int
		checkpoints string // "none", "sync" or "background"
	}{
		{"no checkpoints", 1, 128, "none"},
		{"checkpoints every 128", 2, 128, "sync"},
		{"checkpoints in the background", 3, 64, "background"},
		{"a checkpoint every event", 4, 1, "sync"},
	}
	const width, depth = 70, 30
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs := sim.Synthetic(tt.seed, sim.SyntheticOptions{Events: 1500, CancelEvery: 4, BatchIDs: tt.seed%2 == 0})
			want := replayFrames(evs, width, depth)
			s := tui.NewStore(evs, tui.StoreOptions{Every: tt.every, Width: width, Depth: depth})
			defer s.Close()
			switch tt.checkpoints {
			case "background":
				s.Start()
				s.WaitCheckpoints()
			case "sync":
				s.WaitCheckpoints()
			}
			rng := rand.New(rand.NewPCG(tt.seed, 7))
			for range 120 {
				n := rng.IntN(len(evs) + 1)
				checkFrame(t, s.Frame(n), want[n])
			}
			for n := len(evs); n >= len(evs)-120; n-- { // stepping back
				checkFrame(t, s.Frame(n), want[n])
			}
		})
	}
}

// TestStoreLayout: a new width drops the frames computed at the old one.
func TestStoreLayout(t *testing.T) {
	evs := sim.Synthetic(5, sim.SyntheticOptions{Events: 400})
	s := tui.NewStore(evs, tui.StoreOptions{Width: 100, Depth: 20})
	defer s.Close()
	s.Frame(200)
	s.SetLayout(50, 20)
	checkFrame(t, s.Frame(200), replayFrames(evs, 50, tui.DefaultDepth)[200])
}

// TestLiveStore appends in batches and rewrites the tail, as a live
// re-import does.
func TestLiveStore(t *testing.T) {
	a := sim.Synthetic(6, sim.SyntheticOptions{Events: 600})
	b := sim.Synthetic(7, sim.SyntheticOptions{Events: 600})
	const width, depth = 80, 40
	s := tui.NewLiveStore(tui.StoreOptions{Width: width, Depth: depth})
	for i := 0; i < 500; i += 50 {
		s.Append(a[i : i+50]...)
		s.Frame(s.Len())
	}
	s.Truncate(300)
	s.Append(b[300:]...)
	mixed := append(slices.Clone(a[:300]), b[300:]...)
	want := replayFrames(mixed, width, depth)
	for _, n := range []int{s.Len(), 299, 300, 301, 450, 10} {
		t.Run(fmt.Sprint(n), func(t *testing.T) { checkFrame(t, s.Frame(n), want[n]) })
	}
	if got := s.SeqIndex(mixed[449].Seq); got != 450 {
		t.Errorf("SeqIndex(seq of event 450) = %d", got)
	}
}

// BenchmarkSeekMiddle opens a 1,000,000-event simulator trace and seeks
// from its first event to its middle: from a checkpoint (once the
// background builder has placed them), and cold (replaying from the
// start). Run: go test ./tui -run '^$' -bench SeekMiddle -benchtime 5x
func BenchmarkSeekMiddle(b *testing.B) {
	evs := sim.Synthetic(1, sim.SyntheticOptions{Events: 1_000_000, CancelEvery: 5})
	mid := len(evs) / 2
	for _, checkpoints := range []bool{true, false} {
		b.Run(map[bool]string{true: "checkpoints", false: "cold"}[checkpoints], func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				s := tui.NewStore(evs, tui.StoreOptions{Width: 80, Depth: 40})
				if checkpoints {
					s.Start()
					s.WaitCheckpoints()
				}
				s.Frame(1)
				b.StartTimer()
				s.Frame(mid)
				b.StopTimer()
				s.Close()
			}
		})
	}
}

// BenchmarkStepMiddle steps one event forward, and one back, around the
// middle of a 1,000,000-event trace with the checkpoint builder running.
func BenchmarkStepMiddle(b *testing.B) {
	evs := sim.Synthetic(1, sim.SyntheticOptions{Events: 1_000_000, CancelEvery: 5})
	mid := len(evs) / 2
	for _, dir := range []int{+1, -1} {
		b.Run(map[int]string{1: "forward", -1: "back"}[dir], func(b *testing.B) {
			s := tui.NewStore(evs, tui.StoreOptions{Width: 80, Depth: 40})
			defer s.Close()
			s.Start()
			s.WaitCheckpoints()
			s.Frame(mid)
			b.ResetTimer()
			for i := range b.N {
				s.Frame(mid + dir*(i+1))
			}
		})
	}
}

// BenchmarkSeekWide opens one turn of 10,000 tool calls that stay live
// (a single group: the widest timeline), builds its checkpoints and seeks
// to its end, reporting the heap the player then holds (MB-heap).
// Checkpoints share the timeline with the engine they come from and a
// frame keeps only its tail lines, so the heap follows the live timeline;
// every kept frame renders the whole group, so a seek keeps fewer frames
// the wider the group (keepWindow) (issue 20 item 8).
// Run: go test ./tui -run '^$' -bench SeekWide -benchmem -benchtime 1x
func BenchmarkSeekWide(b *testing.B) {
	evs := []event.Event{{Seq: 1, Kind: event.KindTurnStart, Role: "assistant"}}
	for i := range 10_000 {
		evs = append(evs, event.Event{Seq: int64(i + 2), T: int64(i / 100), Kind: event.KindToolStart, ID: fmt.Sprintf("call_%d", i), Name: "read", Args: []byte(fmt.Sprintf(`{"path":"src/file_%d.go"}`, i))})
	}
	for range b.N {
		s := tui.NewStore(evs, tui.StoreOptions{Width: 80, Depth: 40})
		s.Start()
		s.WaitCheckpoints()
		s.Frame(len(evs))
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		b.ReportMetric(float64(m.HeapInuse>>20), "MB-heap")
		s.Close()
	}
}
