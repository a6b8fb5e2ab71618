package executor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
)

// TestTwoGrantsReplayAlike: two calls of one step asked by pausing the run
// and granted one after the other re-enter their tools only once the last
// answer came; the kit waits for both, so a thousand replays of each trace
// give the same timelines after every event. A granted call that has not
// re-entered its tool yet is busy, not waiting on toolsim (resting).
func TestTwoGrantsReplayAlike(t *testing.T) {
	asked := func(evs ...event.Event) []event.Event {
		head := []event.Event{assistant, start("a"), start("b"), perm("a", "asked"), perm("b", "asked"),
			perm("a", "granted"), perm("b", "granted")}
		return trace(append(head, evs...)...)
	}
	tests := []struct {
		name   string
		events []event.Event
	}{
		{"results in call order", asked(done("a", true), done("b", true), turnEnd)},
		{"results in reverse order", asked(done("b", false), done("a", true), turnEnd)},
		{"cancelled once both were granted", asked(cancel, turnEnd)},
		{"one result, then a cancel", asked(done("b", true), cancel, turnEnd)},
	}
	for _, tt := range tests {
		for _, eager := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/eager=%v", tt.name, eager), func(t *testing.T) {
				err := Repeat(1000, tt.events, func() *Engine {
					return New(mini{merged: true, tasks: true, pauses: true, eager: eager}, Config{AtStepEnd: !eager, PauseToAsk: true})
				})
				if err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

// late is a library that, after the first text part, changes the UI once
// more from a goroutine of its own when the test releases it: a change
// between two events, as the kit's own misjudged settle shows one.
type late struct{ release, wrote chan struct{} }

func (l late) Run(ctx context.Context, turn *Turn) error {
	first := true
	for p := range turn.Stream(ctx) {
		if p.Kind == PartText && first {
			first = false
			turn.UI.Text(p.Text)
			go func() {
				<-l.release
				turn.UI.Text(" (late)")
				close(l.wrote)
			}()
		}
	}
	turn.UI.Done()
	return nil
}

// TestChangeBetweenEventsIsToolsimsFault: a UI that changes after an
// event settled and before the next reaches the library fails the engine
// with toolsim's own fault, naming the kit, not with an engine failure.
func TestChangeBetweenEventsIsToolsimsFault(t *testing.T) {
	l := late{release: make(chan struct{}), wrote: make(chan struct{})}
	e := New(l, Config{})
	defer e.Close()
	evs := trace(assistant, event.Event{Kind: event.KindText, Text: "hi"}, event.Event{Kind: event.KindText, Text: " there"}, turnEnd)
	e.Apply(&evs[0])
	e.Apply(&evs[1])
	if err := e.Err(); err != nil {
		t.Fatalf("before the late change: %v", err)
	}
	close(l.release)
	<-l.wrote
	e.Apply(&evs[2])
	var f *harness.ToolsimFault
	if err := e.Err(); !errors.As(err, &f) || f.Part != "executor kit" || !strings.Contains(err.Error(), "after seq 2 had settled, before seq 3") {
		t.Fatalf("Err() = %v, want toolsim's own fault of the executor kit between seq 2 and 3", err)
	}
}
