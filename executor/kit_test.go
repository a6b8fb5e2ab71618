package executor

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsim/toolsim/event"
)

// TestKitHelpers: what the kit does for an adapter, each through mini
// configured as a library that needs it, with the timelines after every
// event the same over a hundred replays (Repeat).
func TestKitHelpers(t *testing.T) {
	text := func(s string) event.Event { return event.Event{Kind: event.KindText, Text: s} }
	tests := []struct {
		name   string
		lib    mini
		cfg    Config
		events []event.Event
		at     int // the timeline after this many events is want
		want   []string
	}{
		{
			name: "a pushed answer is shown part by part (AwaitShown, Shown)",
			lib:  mini{push: true}, cfg: Config{AwaitShown: true},
			events: trace(assistant, text("Let "), text("me"), start("a"), done("a", true), text("done"), turnEnd),
			at:     4,
			want:   []string{`assistant "Let me" interrupted=false`, `tool a running out="" err=""`},
		},
		{
			name: "a library that reports only successes: the failed row stays as it shows it, the cancelled one is interrupted (ReportsOnlySuccess, InterruptLive)",
			lib:  mini{onlyOK: true}, cfg: Config{ReportsOnlySuccess: true},
			events: trace(assistant, start("a"), start("b"), start("c"), done("a", true), done("c", false), cancel, turnEnd),
			at:     8,
			want: []string{`tool a ok out="out a" err=""`, `tool b interrupted out="" err=""`, `tool c interrupted out="" err=""`,
				`notice "esc" interrupted=false`},
		},
		{
			name: "one id again after a call of it failed unreported: the report is the new call's (ReportsOnlySuccess)",
			lib:  mini{onlyOK: true}, cfg: Config{ReportsOnlySuccess: true},
			events: trace(assistant, start("a"), done("a", false), start("a"), done("a", true), turnEnd),
			at:     6,
			want: []string{`tool a running out="" err=""`, `tool a ok out="out a" err=""`,
				`separator "Turn complete" interrupted=false`},
		},
		{
			name: "a later request granted first shows at once (Resume, Answers in any order)",
			lib:  mini{merged: true, tasks: true, pauses: true, anyOrder: true}, cfg: Config{AtStepEnd: true, PauseToAsk: true},
			events: trace(assistant, start("a"), start("b"), perm("a", "asked"), perm("b", "asked"), perm("b", "granted"),
				perm("a", "denied"), done("b", true), turnEnd),
			at:   6,
			want: []string{`tool a pending out="" err=""`, `tool b running out="" err=""`},
		},
		{
			name: "... and the run goes on with the answers",
			lib:  mini{merged: true, tasks: true, pauses: true, anyOrder: true}, cfg: Config{AtStepEnd: true, PauseToAsk: true},
			events: trace(assistant, start("a"), start("b"), perm("a", "asked"), perm("b", "asked"), perm("b", "granted"),
				perm("a", "denied"), done("b", true), turnEnd),
			at: 9,
			want: []string{`tool a denied out="" err=""`, `tool b ok out="out b" err=""`,
				`separator "Turn complete" interrupted=false`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			engine := func() *Engine { return New(tt.lib, tt.cfg) }
			e := engine()
			tls, err := e.Replay(tt.events, true)
			e.Close()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, outline(tls[tt.at-1])); diff != "" {
				t.Errorf("after %d events (-want +got):\n%s", tt.at, diff)
			}
			if err := Repeat(100, tt.events, engine); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestRows: row handles reach their own row whatever other row shares its
// id; ResultOf joins on id and tool name; InterruptLive ends only live
// rows.
func TestRows(t *testing.T) {
	e := New(mini{}, Config{})
	defer e.Close()
	u := e.ui
	first, second := u.CallRow("a", "grep"), u.CallRow("a", "grep")
	u.Call("b", "grep")
	u.Call("b", "read")
	u.Call("c", "bash")
	u.Call("d", "bash")
	second.Result("two", nil)
	first.Result("", errors.New("boom"))
	u.ResultOf("b", "read", "by name", nil)
	u.ResultOf("b", "glob", "no such row", nil)
	u.Asked("c")
	u.Result("d", "", ErrDenied)
	u.InterruptLive()
	want := []string{`tool a failed out="" err="boom"`, `tool a ok out="two" err=""`, `tool b interrupted out="" err=""`,
		`tool b ok out="by name" err=""`, `tool c interrupted out="" err=""`, `tool d denied out="" err=""`}
	if diff := cmp.Diff(want, outline(e.Timeline())); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestCheckpoints: what Set saved, Get returns; an unknown id is none.
func TestCheckpoints(t *testing.T) {
	var s Checkpoints
	ctx := t.Context()
	if _, ok, err := s.Get(ctx, "run-1"); ok || err != nil {
		t.Fatalf("Get before Set: ok %v, err %v", ok, err)
	}
	if err := s.Set(ctx, "run-1", []byte("state")); err != nil {
		t.Fatal(err)
	}
	if data, ok, err := s.Get(ctx, "run-1"); !ok || err != nil || string(data) != "state" {
		t.Errorf("Get = %q, %v, %v; want \"state\", true, nil", data, ok, err)
	}
}
