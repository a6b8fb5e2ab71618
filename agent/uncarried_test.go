package agent

import (
	"testing"

	"github.com/toolsim/toolsim/event"
)

// TestUncarried finds the first event the real boundary cannot carry: a
// result or progress for a call never started (calls-first), and a model
// response while a call of the turn's last one runs (steps-wait).
func TestUncarried(t *testing.T) {
	turn := event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant}
	start := func(id string) event.Event { return event.Event{Kind: event.KindToolStart, ID: id, Name: "grep"} }
	done := func(id string) event.Event { return event.Event{Kind: event.KindToolDone, ID: id, OK: true} }
	progress := event.Event{Kind: event.KindToolProgress, ID: "b", Output: "1/2"}
	end := event.Event{Kind: event.KindTurnEnd, Role: event.RoleAssistant}
	tests := []struct {
		name      string
		evs       []event.Event
		wantSeq   int64 // 0: carried
		guarantee string
	}{
		{"one step", []event.Event{turn, start("a"), start("b"), done("b"), done("a"), end}, 0, ""},
		{"two steps, the first ended", []event.Event{turn, start("a"), done("a"), start("b"), done("b"), end}, 0, ""},
		{"a result before its start", []event.Event{turn, done("a"), start("a"), end}, 2, "calls-first"},
		{"progress for a call never started", []event.Event{turn, start("a"), progress, done("a"), end}, 3, "calls-first"},
		{"a second step while the first runs", []event.Event{turn, start("a"), start("b"), done("a"), start("c"), done("b"), done("c"), end}, 5, "steps-wait"},
		{"a second result", []event.Event{turn, start("a"), done("a"), done("a"), end}, 4, "one-result"},
		{"progress after the result", []event.Event{turn, start("b"), done("b"), progress, end}, 4, "one-result"},
		{"a result after a cancel", []event.Event{turn, start("a"), {Kind: event.KindCancel}, done("a"), end}, 0, ""},
		{"a reused id's second call", []event.Event{turn, start("a"), done("a"), start("a"), done("a"), end}, 0, ""},
		{"the final answer while a call runs", []event.Event{turn, start("a"), start("b"), done("a"), end}, 5, "results-before-end"},
		{"a new turn after a cancel", []event.Event{turn, start("a"), {Kind: event.KindCancel}, end, turn, start("b"), done("b"), end}, 0, ""},
		{"a step after a cancel", []event.Event{turn, start("a"), {Kind: event.KindCancel}, start("b"), done("b"), end}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs := append([]event.Event(nil), tt.evs...)
			for i := range evs {
				evs[i].Seq, evs[i].T = int64(i+1), int64(i)
			}
			u := Uncarried(evs)
			switch {
			case u == nil && tt.wantSeq != 0:
				t.Fatalf("Uncarried = nil, want seq %d outside %s", tt.wantSeq, tt.guarantee)
			case u != nil && (u.Seq != tt.wantSeq || u.Guarantee != tt.guarantee):
				t.Fatalf("Uncarried = %v, want seq %d outside %q", u, tt.wantSeq, tt.guarantee)
			}
		})
	}
}
