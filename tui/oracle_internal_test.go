package tui

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/oracle"
	"github.com/toolsim/toolsim/timeline"
)

// tl builds a timeline of single-tool items, one per "id:status" pair.
func tl(tools ...string) *timeline.Timeline {
	out := &timeline.Timeline{}
	for _, s := range tools {
		id, st, _ := strings.Cut(s, ":")
		out.Items = append(out.Items, &timeline.Item{Kind: timeline.ItemTool, Tool: &timeline.Tool{ID: id, Status: timeline.Status(st)}})
	}
	return out
}

// group builds a timeline holding one tool_group of the tools given.
func group(tools ...string) *timeline.Timeline {
	it := &timeline.Item{Kind: timeline.ItemToolGroup}
	for _, t := range tl(tools...).Items {
		it.Tools = append(it.Tools, t.Tool)
	}
	return &timeline.Timeline{Items: []*timeline.Item{it}}
}

// TestOraclesStep: each step-local oracle fires on the engine fault it is
// for, with the harness's words, and stays quiet on a good step.
func TestOraclesStep(t *testing.T) {
	start := func(id string) *event.Event { return &event.Event{Kind: event.KindToolStart, ID: id} }
	progress := &event.Event{Kind: event.KindToolProgress, ID: "t1"}
	turnEnd := &event.Event{Kind: event.KindTurnEnd}
	tests := []struct {
		name          string
		before, after *timeline.Timeline
		ev            *event.Event
		want          []Violation
	}{
		{"a start adds its tool", tl(), tl("t1:running"), start("t1"), nil},
		{"a result ends a tool", tl("t1:running"), tl("t1:ok"), &event.Event{Kind: event.KindToolDone, ID: "t1"}, nil},
		{"turn end with every tool ended", tl("t1:ok"), tl("t1:ok"), turnEnd, nil},
		{"terminal status moves", tl("t1:ok"), tl("t1:running"), progress,
			[]Violation{{oracle.Status, "tool t1 went from terminal ok to running"}}},
		{"a row disappears", tl("t0:ok", "t1:running"), tl("t0:ok"), progress,
			[]Violation{{oracle.Once, "tool t1: -1 rows more than the event accounts for"}}},
		{"a start adds two rows", tl(), tl("t1:running", "t1:running"), start("t1"),
			[]Violation{{oracle.Once, "tool t1: +1 rows more than the event accounts for"}}},
		{"a start adds nothing", tl(), tl(), start("t1"),
			[]Violation{{oracle.Once, "tool t1: -1 rows more than the event accounts for"}}},
		{"live after turn end", tl("t1:running", "t2:pending"), tl("t1:running", "t2:pending"), turnEnd,
			[]Violation{{oracle.NoLive, "tool t1 is still running after turn_end"}, {oracle.NoLive, "tool t2 is still pending after turn_end"}}},
		{"a group of one", tl(), group("t1:running"), start("t1"),
			[]Violation{{oracle.Groups, "a tool_group holds 1 tools"}}},
		{"a group of two", tl("t1:running"), group("t1:running", "t2:running"), start("t2"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var o oracles
			o.sync(tt.before)
			got := o.step(tt.ev, tt.after)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("step (-want +got):\n%s", diff)
			}
		})
	}
}

// TestOraclesStillLiveBounded: a frame names at most maxStillLive live
// tools and counts the rest.
func TestOraclesStillLiveBounded(t *testing.T) {
	var ids []string
	for i := range maxStillLive + 5 {
		ids = append(ids, fmt.Sprintf("t%d:running", i))
	}
	var o oracles
	all := tl(ids...)
	o.sync(all)
	var want []Violation
	for i := range maxStillLive {
		want = append(want, Violation{oracle.NoLive, fmt.Sprintf("tool t%d is still running after cancel", i)})
	}
	want = append(want, Violation{oracle.NoLive, "5 more tools are still live after cancel"})
	if diff := cmp.Diff(want, o.step(&event.Event{Kind: event.KindCancel}, all)); diff != "" {
		t.Errorf("step (-want +got):\n%s", diff)
	}
}

// TestOraclesUnchangedItems: an item whose pointer and version are as
// before is not looked at again: checking a step costs only the items the
// event changed. (An engine that changes an item must move its Version;
// the harness's incremental oracle checks that.)
func TestOraclesUnchangedItems(t *testing.T) {
	var o oracles
	cur := tl("t1:ok")
	o.sync(cur)
	cur.Items[0].Tool.Status = timeline.StatusRunning // terminal → running, Version kept
	if got := o.step(&event.Event{Kind: event.KindText}, cur); len(got) != 0 {
		t.Errorf("an item with its old pointer and version was compared again: %v", got)
	}
	cur.Items[0].Version++
	want := []Violation{{oracle.Status, "tool t1 went from terminal ok to running"}}
	if diff := cmp.Diff(want, o.step(&event.Event{Kind: event.KindText}, cur)); diff != "" {
		t.Errorf("after its version moved (-want +got):\n%s", diff)
	}
}
