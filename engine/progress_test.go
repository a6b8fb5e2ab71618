package engine_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// progressOf is a tool_progress event carrying an output delta.
func progressOf(seq int64, id, delta string) event.Event {
	return event.Event{Seq: seq, T: seq, Kind: event.KindToolProgress, ID: id, Output: delta}
}

// streamed starts tool a on a fresh engine and applies a progress event
// per delta.
func streamed(deltas ...string) *engine.Engine {
	e := engine.New(engine.Options{})
	e.Apply(&event.Event{Seq: 1, Kind: event.KindToolStart, ID: "a", Name: "bash"})
	for i, d := range deltas {
		ev := progressOf(int64(i+2), "a", d)
		e.Apply(&ev)
	}
	return e
}

// outputOf returns the output of the first tool with the id.
func outputOf(e *engine.Engine, id string) string {
	out := ""
	for _, it := range e.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			if t.ID == id {
				out = t.Output
				return false
			}
			return true
		})
	}
	return out
}

// TestToolProgressOutput: streamed output is every delta so far, exactly,
// after each event; an output read earlier never changes; a result's
// output replaces it and a result without one keeps it.
func TestToolProgressOutput(t *testing.T) {
	tests := []struct {
		name   string
		deltas []string
		done   *event.Event // applied after the deltas, when set
		want   string
	}{
		{"one delta", []string{"hello\n"}, nil, "hello\n"},
		{"many deltas", []string{"a", "bc", "", "def\n", "g"}, nil, "abcdef\ng"},
		{"empty deltas only", []string{"", ""}, nil, ""},
		{"wide and multi-byte", []string{"日本", "語 ", "👩‍💻", "e\u0301"}, nil, "日本語 👩‍💻e\u0301"},
		{"result output replaces", []string{"x", "y", "z"}, &event.Event{Kind: event.KindToolDone, ID: "a", OK: true, Output: "final"}, "final"},
		{"result without output keeps", []string{"x", "y", "z"}, &event.Event{Kind: event.KindToolDone, ID: "a", OK: true}, "xyz"},
		{"late progress ignored", []string{"x", "y"}, &event.Event{Kind: event.KindCancel}, "xy"},
		{"growing past 1 KiB", []string{strings.Repeat("a", 1000), strings.Repeat("b", 30), "c", "", "d\n"}, nil,
			strings.Repeat("a", 1000) + strings.Repeat("b", 30) + "cd\n"},
		{"long first delta", []string{long, "x", "y"}, nil, long + "xy"},
		{"long, then result without output", []string{long, "x", "y"}, &event.Event{Kind: event.KindToolDone, ID: "a", OK: true}, long + "xy"},
		{"long, then result output", []string{long, "x"}, &event.Event{Kind: event.KindToolDone, ID: "a", OK: false, Output: "err"}, "err"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := streamed()
			var seen []string
			for i, d := range tt.deltas {
				ev := progressOf(int64(i+2), "a", d)
				e.Apply(&ev)
				seen = append(seen, outputOf(e, "a"))
			}
			if tt.done != nil {
				done := *tt.done
				done.Seq = 100
				e.Apply(&done)
				late := progressOf(101, "a", "late")
				e.Apply(&late)
			}
			if diff := cmp.Diff(tt.want, outputOf(e, "a")); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			for i := range seen {
				if want := strings.Join(tt.deltas[:i+1], ""); seen[i] != want {
					t.Errorf("output read after delta %d is now %q, want %q", i, seen[i], want)
				}
			}
		})
	}
}

// long is an output long enough that the engine grows it in place rather
// than concatenating (engine's builderFrom is 1 KiB).
var long = strings.Repeat("-", 4<<10)

// short shows an output that starts with long as "long+REST".
func short(s string) string {
	if rest, ok := strings.CutPrefix(s, long); ok {
		return "long+" + rest
	}
	return s
}

// TestToolProgressOutputAfterClone: an engine and its clone stream
// different deltas to a tool whose output both hold; each sees only its
// own, and neither changes an output the other (or a reader) holds.
func TestToolProgressOutputAfterClone(t *testing.T) {
	for _, prefix := range []string{"", long} {
		t.Run(short(prefix)+"abc", func(t *testing.T) { cloneStreams(t, prefix) })
	}
}

func cloneStreams(t *testing.T, prefix string) {
	orig := streamed(prefix, "a", "b", "c")
	held := outputOf(orig, "a")
	clone := orig.Clone()
	for i, d := range []string{"X", "Y", "Z"} {
		o, c := progressOf(int64(10+i), "a", d), progressOf(int64(10+i), "a", strings.ToLower(d))
		orig.Apply(&o)
		clone.Apply(&c)
	}
	again := clone.Clone()
	more := progressOf(20, "a", "!")
	again.Apply(&more)
	got := []string{short(held), short(outputOf(orig, "a")), short(outputOf(clone, "a")), short(outputOf(again, "a"))}
	want := []string{short(prefix + "abc"), short(prefix + "abcXYZ"), short(prefix + "abcxyz"), short(prefix + "abcxyz!")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("held, original, clone, clone of clone (-want +got):\n%s", diff)
	}
}

// TestToolProgressOutputTwoLiveCalls: two live calls with one id pair
// their progress first-in-first-out, each keeping its own output.
func TestToolProgressOutputTwoLiveCalls(t *testing.T) {
	e := streamed(long, "1", "2")
	evs := []event.Event{
		{Seq: 10, Kind: event.KindToolStart, ID: "a", Name: "bash"},
		{Seq: 11, Kind: event.KindToolStart, ID: "b", Name: "bash"},
		progressOf(12, "b", "b1"), progressOf(13, "a", "3"), progressOf(14, "b", "b2"),
		{Seq: 15, Kind: event.KindToolDone, ID: "a", OK: true},
		progressOf(16, "a", long), progressOf(17, "a", "second"), progressOf(18, "a", "+"),
	}
	for i := range evs {
		e.Apply(&evs[i])
	}
	var got []string
	for _, it := range e.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			got = append(got, t.ID+"="+short(t.Output))
			return true
		})
	}
	if diff := cmp.Diff([]string{"a=long+123", "a=long+second+", "b=b1b2"}, got); diff != "" {
		t.Errorf("outputs (-want +got):\n%s", diff)
	}
}

// BenchmarkToolProgressDeltas streams 10,000 deltas of 10 bytes to one
// tool: the cost of appending must not grow with the output already
// there.
func BenchmarkToolProgressDeltas(b *testing.B) {
	const deltas, size = 10_000, 10
	evs := make([]event.Event, 0, deltas+2)
	evs = append(evs, event.Event{Seq: 1, Kind: event.KindToolStart, ID: "a", Name: "bash"})
	for i := range deltas {
		evs = append(evs, progressOf(int64(i+2), "a", strings.Repeat(string(rune('a'+i%26)), size)))
	}
	evs = append(evs, event.Event{Seq: deltas + 2, T: deltas + 2, Kind: event.KindToolDone, ID: "a", OK: true})
	b.ReportAllocs()
	for b.Loop() {
		e := engine.New(engine.Options{})
		for i := range evs {
			e.Apply(&evs[i])
		}
		if n := len(outputOf(e, "a")); n != deltas*size {
			b.Fatalf("output of %d bytes, want %d", n, deltas*size)
		}
	}
}
