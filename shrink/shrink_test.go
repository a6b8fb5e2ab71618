package shrink_test

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/shrink"
)

func ptr[T any](v T) *T { return &v }

func ghostTrace() []event.Event {
	ghost := event.Event{
		Kind: event.KindToolDone, ID: "ghost", Output: "boom", Error: "nope", DurationMS: ptr[int64](12),
		Extra: []event.Field{{Key: "x_trace", Value: json.RawMessage(`"1"`)}},
	}
	return insert(genTrace(299, 1)[:299], 150, ghost)
}

func cancelTrace() []event.Event {
	base := genTrace(300, 2)
	return insert(base, openAt(base, 150), event.Event{Kind: event.KindCancel, Reason: "user pressed escape"})
}

func needleTrace() []event.Event {
	return insert(genTrace(200, 3), 100, event.Event{Kind: event.KindText, Text: "we found the needle in the haystack"})
}

// afterDone returns the index just past the first tool_done at or after from.
func afterDone(evs []event.Event, from int) int {
	return from + 1 + slices.IndexFunc(evs[from:], func(ev event.Event) bool { return ev.Kind == event.KindToolDone })
}

func errorTrace() []event.Event {
	base := genTrace(300, 4)
	return insert(base, afterDone(base, 150), event.Event{Kind: event.KindError, Message: "rate limited"})
}

func boomTrace() []event.Event {
	evs := genTrace(300, 5)
	i := afterDone(evs, 150) - 1
	evs[i].OK, evs[i].Error = false, "exit status 1: boom happened"
	return evs
}

func hasKind(evs []event.Event, k event.Kind) bool {
	return slices.ContainsFunc(evs, func(ev event.Event) bool { return ev.Kind == k })
}

func textHas(sub string) func([]event.Event) bool {
	return func(evs []event.Event) bool {
		return slices.ContainsFunc(evs, func(ev event.Event) bool {
			return ev.Kind == event.KindText && strings.Contains(ev.Text, sub)
		})
	}
}

// childOfStarted reports a tool_start whose parent started before it.
func childOfStarted(evs []event.Event) bool {
	started := map[string]bool{}
	for _, ev := range evs {
		if ev.Kind != event.KindToolStart {
			continue
		}
		if started[ev.Parent] {
			return true
		}
		started[ev.ID] = true
	}
	return false
}

// wellFormedError needs well-formed turns and tools and an error event.
func wellFormedError(evs []event.Event) bool {
	return turnsWellFormed(evs) && toolsWellFormed(evs) && hasKind(evs, event.KindError)
}

// wellFormedBoom needs well-formed tools and a done whose error says boom.
func wellFormedBoom(evs []event.Event) bool {
	return toolsWellFormed(evs) && slices.ContainsFunc(evs, func(ev event.Event) bool {
		return ev.Kind == event.KindToolDone && strings.Contains(ev.Error, "boom")
	})
}

func swapTrace() []event.Event {
	return []event.Event{
		{Seq: 1, T: 5, Kind: event.KindCancel, Reason: "stop"},
		{Seq: 2, T: 9, Kind: event.KindToolStart, ID: "x", Name: "bash"},
	}
}

func cancelAndStart(evs []event.Event) bool {
	return hasKind(evs, event.KindCancel) && hasKind(evs, event.KindToolStart)
}

// kindsTrace alternates text and error events; no chunk of the halving
// sizes takes all texts without all errors.
func kindsTrace() []event.Event {
	var evs []event.Event
	for i, k := range []event.Kind{event.KindText, event.KindError, event.KindText, event.KindError, event.KindText} {
		evs = append(evs, event.Event{Seq: int64(i + 1), Kind: k, Text: "t", Message: "m"})
		if k == event.KindText {
			evs[i].Message = ""
		} else {
			evs[i].Text = ""
		}
	}
	return evs
}

// errorNotFewTexts needs an error and either no text or three or more, so
// texts can only go all at once.
func errorNotFewTexts(evs []event.Event) bool {
	n := 0
	for _, ev := range evs {
		if ev.Kind == event.KindText {
			n++
		}
	}
	return hasKind(evs, event.KindError) && (n == 0 || n >= 3)
}

// progressTrace has two tools with three progress events each.
func progressTrace() []event.Event {
	evs := []event.Event{
		{Kind: event.KindToolStart, ID: "t1", Name: "bash"},
		{Kind: event.KindToolStart, ID: "t2", Name: "grep"},
	}
	for range 3 {
		evs = append(evs, event.Event{Kind: event.KindToolProgress, ID: "t1", Output: "p"},
			event.Event{Kind: event.KindToolProgress, ID: "t2", Output: "q"})
	}
	evs = append(evs, event.Event{Kind: event.KindToolDone, ID: "t2", OK: true},
		event.Event{Kind: event.KindToolDone, ID: "t1", Error: "boom"})
	for i := range evs {
		evs[i].Seq = int64(i + 1)
	}
	return evs
}

// boomProgress needs a well-formed boom whose tool has no progress or
// three or more, and progress on some other tool: the boom tool's progress
// can only go all at once, and not with the other tool's.
func boomProgress(evs []event.Event) bool {
	counts := map[string]int{}
	boom := ""
	for _, ev := range evs {
		switch {
		case ev.Kind == event.KindToolProgress:
			counts[ev.ID]++
		case ev.Kind == event.KindToolDone && strings.Contains(ev.Error, "boom"):
			boom = ev.ID
		}
	}
	others := 0
	for id, n := range counts {
		if id != boom {
			others += n
		}
	}
	return wellFormedBoom(evs) && (counts[boom] == 0 || counts[boom] >= 3) && others > 0
}

func TestShrinkMinimal(t *testing.T) {
	args := json.RawMessage(`{}`)
	tests := []struct {
		name   string
		trace  []event.Event
		fails  func([]event.Event) bool
		ignore []string // Event fields not compared
		want   []event.Event
	}{
		{"orphan done in 300 events", ghostTrace(), orphanDone, []string{"T", "OK"},
			[]event.Event{{Seq: 1, Kind: event.KindToolDone, ID: "a"}}},
		{"cancel with two open tools", cancelTrace(), cancelTwoOpen, []string{"T", "ID", "Name"},
			[]event.Event{
				{Seq: 1, Kind: event.KindToolStart, Args: args},
				{Seq: 2, Kind: event.KindToolStart, Args: args},
				{Seq: 3, Kind: event.KindCancel},
			}},
		{"text trimmed to needle", needleTrace(), textHas("needle"), []string{"T"},
			[]event.Event{{Seq: 1, Kind: event.KindText, Text: "needle"}}},
		{"child keeps its renamed parent", genTrace(300, 6), childOfStarted, []string{"T", "Name"},
			[]event.Event{
				{Seq: 1, Kind: event.KindToolStart, ID: "a", Args: args},
				{Seq: 2, Kind: event.KindToolStart, ID: "b", Parent: "a", Args: args},
			}},
		{"well-formed tools keep one whole tool", boomTrace(), wellFormedBoom, []string{"T", "Name"},
			[]event.Event{
				{Seq: 1, Kind: event.KindToolStart, ID: "a", Args: args},
				{Seq: 2, Kind: event.KindToolDone, ID: "a", Error: "boom"},
			}},
		{"well-formed turns keep one whole turn", errorTrace(), wellFormedError, []string{"T", "Role"},
			[]event.Event{
				{Seq: 1, Kind: event.KindTurnStart},
				{Seq: 2, Kind: event.KindError},
				{Seq: 3, Kind: event.KindTurnEnd},
			}},
		{"neighbours swapped into kind order", swapTrace(), cancelAndStart, nil,
			[]event.Event{
				{Seq: 1, T: 5, Kind: event.KindToolStart, ID: "a", Name: "bash"},
				{Seq: 2, T: 9, Kind: event.KindCancel},
			}},
		{"all of a kind at once", kindsTrace(), errorNotFewTexts, nil,
			[]event.Event{{Seq: 1, Kind: event.KindError}}},
		{"all progress of one tool at once", progressTrace(), boomProgress, []string{"T"},
			[]event.Event{
				{Seq: 1, Kind: event.KindToolStart, ID: "a", Name: "bash"},
				{Seq: 2, Kind: event.KindToolStart, ID: "b", Name: "grep"},
				{Seq: 3, Kind: event.KindToolProgress, ID: "b"},
				{Seq: 4, Kind: event.KindToolDone, ID: "b", OK: true},
				{Seq: 5, Kind: event.KindToolDone, ID: "a", Error: "boom"},
			}},
		{"always failing shrinks to nothing", genTrace(100, 7), func([]event.Event) bool { return true }, nil,
			nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.fails(tt.trace) {
				t.Fatal("the input trace does not fail")
			}
			got := shrink.Shrink(tt.trace, tt.fails, shrink.Options{})
			opts := cmp.Options{cmpopts.EquateEmpty(), cmpopts.IgnoreFields(event.Event{}, tt.ignore...)}
			if diff := cmp.Diff(tt.want, got.Events, opts); diff != "" {
				t.Errorf("Shrink of %d events after %d tests (-want +got):\n%s", len(tt.trace), got.Tests, diff)
			}
		})
	}
}

func TestShrinkCancelRenamesBothTools(t *testing.T) {
	got := shrink.Shrink(cancelTrace(), cancelTwoOpen, shrink.Options{})
	var ids []string
	for _, ev := range got.Events {
		if ev.Kind == event.KindToolStart {
			ids = append(ids, ev.ID)
		}
	}
	slices.Sort(ids)
	if diff := cmp.Diff([]string{"a", "b"}, ids); diff != "" {
		t.Errorf("tool ids (-want +got):\n%s", diff)
	}
}

func TestShrinkUTF8(t *testing.T) {
	trace := []event.Event{
		{Seq: 1, Kind: event.KindText, Text: "héllo wörld ✓ ünïcode ✓ naïve"},
		{Seq: 2, Kind: event.KindText, Text: "plain"},
	}
	var invalid []string
	fails := func(evs []event.Event) bool {
		for _, ev := range evs {
			if !utf8.ValidString(ev.Text) {
				invalid = append(invalid, ev.Text)
			}
		}
		return textHas("✓")(evs)
	}
	got := shrink.Shrink(trace, fails, shrink.Options{})
	want := []event.Event{{Seq: 1, Kind: event.KindText, Text: "✓"}}
	if diff := cmp.Diff(want, got.Events); diff != "" {
		t.Errorf("Shrink (-want +got):\n%s", diff)
	}
	if len(invalid) > 0 {
		t.Errorf("candidates with invalid UTF-8: %q", invalid)
	}
}

// checkCandidate describes how c breaks the trace invariants, or "".
func checkCandidate(c []event.Event) string {
	for i := range c {
		if c[i].Seq != int64(i+1) {
			return fmt.Sprintf("event %d has seq %d", i, c[i].Seq)
		}
		if err := event.Validate(&c[i]); err != nil {
			return fmt.Sprintf("event %d: %v", i, err)
		}
	}
	if err := event.WriteAll(io.Discard, nil, c); err != nil {
		return err.Error()
	}
	return ""
}

func TestShrinkCandidatesValid(t *testing.T) {
	tests := []struct {
		name  string
		trace []event.Event
		fails func([]event.Event) bool
	}{
		{"orphan done", ghostTrace(), orphanDone},
		{"cancel with two open", cancelTrace(), cancelTwoOpen},
		{"needle", needleTrace(), textHas("needle")},
		{"well-formed error", errorTrace(), wellFormedError},
		{"well-formed boom", boomTrace(), wellFormedBoom},
		{"child of started", genTrace(300, 6), childOfStarted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bad []string
			calls := 0
			wrapped := func(c []event.Event) bool {
				calls++
				if msg := checkCandidate(c); msg != "" && len(bad) < 5 {
					bad = append(bad, fmt.Sprintf("call %d: %s", calls, msg))
				}
				return tt.fails(c)
			}
			got := shrink.Shrink(tt.trace, wrapped, shrink.Options{})
			if len(bad) > 0 {
				t.Errorf("invalid candidates:\n%s", strings.Join(bad, "\n"))
			}
			if got.Tests != calls {
				t.Errorf("Tests = %d, fails was called %d times", got.Tests, calls)
			}
			if !tt.fails(got.Events) || len(got.Events) >= len(tt.trace) {
				t.Errorf("result of %d events (from %d) fails=%v", len(got.Events), len(tt.trace), tt.fails(got.Events))
			}
		})
	}
}

func TestShrinkLeavesInputAlone(t *testing.T) {
	trace := insert(genTrace(200, 8), 50, event.Event{Kind: event.KindToolStart, ID: "keep", Name: "k", Args: json.RawMessage(`{"keep":1}`)})
	before := deepCopy(trace)
	fails := func(evs []event.Event) bool {
		return slices.ContainsFunc(evs, func(ev event.Event) bool { return string(ev.Args) == `{"keep":1}` })
	}
	got := shrink.Shrink(trace, fails, shrink.Options{})
	if diff := cmp.Diff(before, trace); diff != "" {
		t.Fatalf("Shrink modified its input (-before +after):\n%s", diff)
	}
	if len(got.Events) != 1 || string(got.Events[0].Args) != `{"keep":1}` {
		t.Fatalf("Shrink = %+v, want the one keep event", got.Events)
	}
	got.Events[0].Args[2] = 'X' // the result must not alias the input
	if diff := cmp.Diff(before, trace); diff != "" {
		t.Errorf("the result shares memory with the input (-before +after):\n%s", diff)
	}
}

func TestShrinkDeterministic(t *testing.T) {
	tests := []struct {
		name  string
		trace []event.Event
		fails func([]event.Event) bool
	}{
		{"cancel with two open", cancelTrace(), cancelTwoOpen},
		{"well-formed boom", boomTrace(), wellFormedBoom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			first := shrink.Shrink(tt.trace, tt.fails, shrink.Options{})
			second := shrink.Shrink(deepCopy(tt.trace), tt.fails, shrink.Options{})
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("second run differs (-first +second):\n%s", diff)
			}
		})
	}
}

func TestShrinkPassingInput(t *testing.T) {
	trace := []event.Event{
		{Seq: 10, T: 1, Kind: event.KindTurnStart, Role: event.RoleUser},
		{Seq: 20, T: 2, Kind: event.KindUser, Text: "hi"},
		{Seq: 30, T: 3, Kind: event.KindTurnEnd},
	}
	calls := 0
	got := shrink.Shrink(trace, func([]event.Event) bool { calls++; return false }, shrink.Options{})
	want := shrink.Result{Tests: 1, Events: []event.Event{
		{Seq: 1, T: 1, Kind: event.KindTurnStart, Role: event.RoleUser},
		{Seq: 2, T: 2, Kind: event.KindUser, Text: "hi"},
		{Seq: 3, T: 3, Kind: event.KindTurnEnd},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Shrink (-want +got):\n%s", diff)
	}
	if calls != 1 {
		t.Errorf("fails called %d times, want 1", calls)
	}
	if trace[1].Seq != 20 {
		t.Errorf("input renumbered in place: seq %d", trace[1].Seq)
	}
}

func TestShrinkMaxTests(t *testing.T) {
	trace := ghostTrace()
	full := shrink.Shrink(trace, orphanDone, shrink.Options{})
	tests := []struct {
		name     string
		max      int
		want     int // calls
		wantSize int // events in the result, 0 for any
	}{
		{"one test is the input only", 1, 1, len(trace)},
		{"two tests", 2, 2, 0},
		{"seven tests", 7, 7, 0},
		{"twenty tests", 20, 20, 0},
		{"more than needed", full.Tests + 100, full.Tests, 1},
		{"zero takes the default", 0, full.Tests, 1},
	}
	if full.Tests <= 20 {
		t.Fatalf("the unbounded run took only %d tests; the table needs more", full.Tests)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			got := shrink.Shrink(trace, func(evs []event.Event) bool { calls++; return orphanDone(evs) }, shrink.Options{MaxTests: tt.max})
			if calls != tt.want || got.Tests != tt.want {
				t.Errorf("fails called %d times, Tests = %d, want %d", calls, got.Tests, tt.want)
			}
			if !orphanDone(got.Events) {
				t.Errorf("the result of %d events does not fail", len(got.Events))
			}
			if tt.wantSize != 0 && len(got.Events) != tt.wantSize {
				t.Errorf("result has %d events, want %d", len(got.Events), tt.wantSize)
			}
		})
	}
}
