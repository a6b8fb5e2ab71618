package oracle

import (
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

func TestMove(t *testing.T) {
	const (
		pending = timeline.StatusPending
		running = timeline.StatusRunning
		done    = timeline.StatusOK
		failed  = timeline.StatusFailed
	)
	tests := []struct {
		name          string
		before, after timeline.Status
		want          string
	}{
		{"first sight", "", done, ""},
		{"stays", running, running, ""},
		{"pending to running", pending, running, ""},
		{"running to pending", running, pending, ""},
		{"running to done", running, done, ""},
		{"terminal stays", done, done, ""},
		{"terminal moves", done, running, "tool t1 went from terminal ok to running"},
		{"terminal to terminal", done, failed, "tool t1 went from terminal ok to failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Move("t1", tt.before, tt.after); got != tt.want {
				t.Errorf("Move(t1, %q, %q) = %q, want %q", tt.before, tt.after, got, tt.want)
			}
		})
	}
}

func TestMoveUnknownStatus(t *testing.T) {
	// A status docs/timeline.md does not list is not an allowed move.
	if got := Move("t1", timeline.StatusRunning, "waiting"); got != "tool t1 moved running → waiting" {
		t.Errorf("Move to an unknown status = %q", got)
	}
}

func TestSmallGroup(t *testing.T) {
	tests := []struct {
		name    string
		members int
		want    string
	}{
		{"empty", 0, "a tool_group holds 0 tools"},
		{"one tool", 1, "a tool_group holds 1 tools"},
		{"two tools", 2, ""},
		{"many tools", 9, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SmallGroup(tt.members); got != tt.want {
				t.Errorf("SmallGroup(%d) = %q, want %q", tt.members, got, tt.want)
			}
		})
	}
}

func TestEndsTurn(t *testing.T) {
	tests := []struct {
		kind event.Kind
		want bool
	}{
		{event.KindTurnEnd, true},
		{event.KindCancel, true},
		{event.KindToolStart, false},
		{event.KindToolDone, false},
		{event.KindTurnStart, false},
		{event.KindError, false},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind), func(t *testing.T) {
			if got := EndsTurn(tt.kind); got != tt.want {
				t.Errorf("EndsTurn(%s) = %v, want %v", tt.kind, got, tt.want)
			}
		})
	}
}

func TestNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range Names {
		if n == "" || seen[n] {
			t.Errorf("oracle name %q is empty or listed twice", n)
		}
		seen[n] = true
	}
}
