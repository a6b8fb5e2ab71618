package tui_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/tui"
)

// TestGoldenViews goldens the model's view (not terminal bytes) at chosen
// steps of scenario traces, at fixed sizes and colour profiles.
func TestGoldenViews(t *testing.T) {
	tests := []struct {
		name     string
		scenario string
		w, h     int
		profile  colorprofile.Profile
		keys     []string
	}{
		{"mixed-flow-start", "seed000-mixed-flow", 120, 24, colorprofile.ASCII, nil},
		{"mixed-flow-three-running", "seed000-mixed-flow", 120, 24, colorprofile.ASCII, []string{"right", "right", "right", "right"}},
		{"mixed-flow-three-running-colour", "seed000-mixed-flow", 120, 24, colorprofile.ANSI256, []string{"right", "right", "right", "right"}},
		{"mixed-flow-end-stacked", "seed000-mixed-flow", 80, 30, colorprofile.ASCII, []string{"end"}},
		{"mixed-flow-json", "seed000-mixed-flow", 100, 30, colorprofile.ASCII, []string{"shift+right", "enter"}},
		{"late-result-after-cancel", "seed004-late-result-after-cancel", 100, 20, colorprofile.ASCII, []string{"end", "left"}},
		{"permission-statuses-colour", "seed001-permission-deny", 120, 20, colorprofile.ANSI256, []string{"end"}},
		{"permission-pending-colour", "seed001-permission-pending", 120, 20, colorprofile.ANSI256, []string{"end"}},
		{"cancel-during-tools-colour", "seed004-cancel-during-tools", 120, 20, colorprofile.ANSI256, []string{"end"}},
		{"delegation", "seed003-delegation-chain", 120, 24, colorprofile.ASCII, []string{"end"}},
		{"help", "seed000-mixed-flow", 100, 20, colorprofile.ASCII, []string{"?"}},
		{"too-small", "seed000-mixed-flow", 30, 8, colorprofile.ASCII, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tui.New(scenarioEvents(t, tt.scenario), tui.Options{Title: tt.scenario, Profile: tt.profile})
			pl := startPlayer(t, m, tt.w, tt.h, tt.profile)
			pl.keys(tt.keys...)
			view := pl.screen()
			checkScreen(t, view, tt.w, tt.h)
			assertGolden(t, tt.name, showEscapes(view))
		})
	}
}

// TestNavigation drives the keys and checks where they land.
func TestNavigation(t *testing.T) {
	tests := []struct {
		name string
		keys []string
		text string // typed after the keys
		more []string
		want int // frame: events applied
	}{
		{name: "starts on the first event", want: 1},
		{name: "step right", keys: []string{"right", "right"}, want: 3},
		{name: "step left stops at the first event", keys: []string{"left", "left"}, want: 1},
		{name: "end", keys: []string{"end"}, want: 13},
		{name: "end then home", keys: []string{"end", "home"}, want: 1},
		{name: "next tool result", keys: []string{"shift+right"}, want: 6},
		{name: "second tool result", keys: []string{"shift+right", "shift+right"}, want: 7},
		{name: "previous tool result", keys: []string{"end", "shift+left"}, want: 11},
		{name: "go to a seq", keys: []string{"g"}, text: "9", more: []string{"enter"}, want: 9},
		{name: "go to a seq past the end", keys: []string{"g"}, text: "99", more: []string{"enter"}, want: 13},
		{name: "go to: escape cancels", keys: []string{"g"}, text: "9", more: []string{"esc"}, want: 1},
		{name: "go to: backspace edits", keys: []string{"g"}, text: "45", more: []string{"backspace", "enter"}, want: 4},
		{name: "search a tool name", keys: []string{"/"}, text: "edit_file", more: []string{"enter"}, want: 10},
		{name: "search an id", keys: []string{"/"}, text: "t2", more: []string{"enter"}, want: 4},
		{name: "search next", keys: []string{"/"}, text: "t2", more: []string{"enter", "n"}, want: 7},
		{name: "search previous wraps", keys: []string{"/"}, text: "t2", more: []string{"enter", "N"}, want: 7},
		{name: "search text", keys: []string{"/"}, text: "fix is applied", more: []string{"enter"}, want: 12},
		{name: "search without a match stays", keys: []string{"right", "/"}, text: "nothing like this", more: []string{"enter"}, want: 2},
	}
	evs := scenarioEvents(t, "seed000-mixed-flow")
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			pl := startPlayer(t, tui.New(evs, tui.Options{Title: "mixed"}), 120, 24, colorprofile.ASCII)
			pl.keys(tt.keys...)
			pl.typeText(tt.text)
			pl.keys(tt.more...)
			if got := pl.pos(); got != tt.want {
				t.Errorf("frame %d, want %d", got, tt.want)
			}
		})
	}
}

// TestSearchMiss says so in the footer.
func TestSearchMiss(t *testing.T) {
	pl := startPlayer(t, tui.New(scenarioEvents(t, "seed000-mixed-flow"), tui.Options{}), 100, 20, colorprofile.ASCII)
	pl.keys("/")
	pl.typeText("zzz")
	pl.keys("enter")
	if view := pl.screen(); !strings.Contains(view, `no event matches "zzz"`) {
		t.Errorf("footer does not report the miss:\n%s", view)
	}
}

// TestViewEqualsPlainRender steps through traces and checks, after every
// event N, that the timeline pane shows the plain render of the first N
// events, as `toolsim replay` prints it.
func TestViewEqualsPlainRender(t *testing.T) {
	for _, name := range []string{"seed000-mixed-flow", "seed001-permission-deny", "seed003-delegation-parallel", "seed004-cancel-during-tools", "edge-subagent-children", "edge-wide-chars", "import-claude-completion-order"} {
		t.Run(name, func(t *testing.T) {
			evs := scenarioEvents(t, name)
			const w, h = 120, 60
			pl := startPlayer(t, tui.New(evs, tui.Options{}), w, h, colorprofile.ASCII)
			width := 0
			pl.look(func(m *tui.Model) { width = m.TimelineWidth() })
			for n := 1; n <= len(evs); n++ {
				var got []string
				pl.look(func(m *tui.Model) { got = m.TimelineLines() })
				want := renderLines(plainRender(evs, n, width))
				if diff := cmp.Diff(want, got); diff != "" {
					t.Fatalf("after event %d (-plain render +pane):\n%s", n, diff)
				}
				view := pl.screen()
				for _, line := range got {
					if !strings.Contains(view, line) {
						t.Fatalf("after event %d the view lacks %q", n, line)
					}
				}
				pl.keys("right")
			}
		})
	}
}

// TestResize reflows the panes, and says so when the terminal is too
// small.
func TestResize(t *testing.T) {
	pl := startPlayer(t, tui.New(scenarioEvents(t, "seed000-mixed-flow"), tui.Options{Title: "mixed"}), 120, 24, colorprofile.ASCII)
	pl.keys("end")
	for _, size := range []struct{ w, h int }{{80, 30}, {30, 8}, {100, 12}, {40, 12}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			pl.tm.Send(tea.WindowSizeMsg{Width: size.w, Height: size.h})
			view := pl.screen()
			checkScreen(t, view, size.w, size.h)
			small := size.w < tui.MinWidth || size.h < tui.MinHeight
			if got := strings.Contains(view, "Terminal too small"); got != small {
				t.Errorf("too-small message shown: %v, want %v\n%s", got, small, view)
			}
			if !small && !strings.Contains(view, "── Turn complete ──") {
				t.Errorf("the timeline is not shown:\n%s", view)
			}
		})
	}
	assertGolden(t, "resized-200x50", pl.screen())
}

// scheduled is a playback timer request the model made.
type scheduled struct {
	d   time.Duration
	msg tea.Msg
}

// TestPlayback drives playback through tick messages the test delivers:
// each wait is the trace's gap at the current speed.
func TestPlayback(t *testing.T) {
	ticks := make(chan scheduled, 16)
	opts := tui.Options{Schedule: func(d time.Duration, msg tea.Msg) tea.Cmd {
		ticks <- scheduled{d, msg}
		return nil
	}}
	pl := startPlayer(t, tui.New(scenarioEvents(t, "seed000-mixed-flow"), opts), 120, 24, colorprofile.ASCII)
	next := func(wantD time.Duration, wantPos int) {
		t.Helper()
		s := <-ticks
		if s.d != wantD {
			t.Errorf("waits %v, want %v", s.d, wantD)
		}
		pl.tm.Send(s.msg)
		if got := pl.pos(); got != wantPos {
			t.Errorf("frame %d, want %d", got, wantPos)
		}
	}
	pl.keys("space")
	next(20*time.Millisecond, 2)  // t 0 → 20
	next(80*time.Millisecond, 5)  // t 20 → 100: three starts at t=100 at once
	next(30*time.Millisecond, 6)  // → 130
	pl.keys("+")                  // 2×: the wait starts again
	next(70*time.Millisecond, 6)  // the wait at 1×, now stale
	next(35*time.Millisecond, 7)  // 70ms of trace
	pl.keys("-", "-")             // 1×, then 0.5×
	next(75*time.Millisecond, 7)  // stale
	next(150*time.Millisecond, 7) // stale
	next(300*time.Millisecond, 8) // 150ms of trace
	pl.keys("space")              // pause: the pending tick is stale
	next(20*time.Millisecond, 8)  // 10ms of trace at 0.5×
	if view := pl.screen(); !strings.Contains(view, "⏸ paused · 0.5×") {
		t.Errorf("header does not show the pause and speed:\n%s", view)
	}
}

// TestSpinnerFromTraceClock: a running tool's spinner frame depends on the
// trace clock only.
func TestSpinnerFromTraceClock(t *testing.T) {
	tests := []struct {
		now  int64
		want string
	}{{0, "⠋"}, {79, "⠋"}, {80, "⠙"}, {800, "⠋"}, {1000, "⠹"}}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.now), func(t *testing.T) {
			if got := tui.Spinner(tt.now); got != tt.want {
				t.Errorf("Spinner(%d) = %q, want %q", tt.now, got, tt.want)
			}
		})
	}
}

// TestLive feeds a live model events in batches, with a rewrite.
func TestLive(t *testing.T) {
	evs := scenarioEvents(t, "seed000-mixed-flow")
	m := tui.New(nil, tui.Options{Title: "stdin", Live: true})
	pl := startPlayer(t, m, 120, 24, colorprofile.ASCII)
	if view := pl.screen(); !strings.Contains(view, "waiting for events on stdin") {
		t.Errorf("an empty live view does not say it waits:\n%s", view)
	}
	pl.tm.Send(tui.EventsMsg{Events: evs[:5]})
	if got := pl.pos(); got != 5 {
		t.Errorf("follows to frame %d, want 5", got)
	}
	pl.keys("home")
	pl.tm.Send(tui.EventsMsg{From: 5, Events: evs[5:9]})
	if got := pl.pos(); got != 1 {
		t.Errorf("moved to frame %d while not following", got)
	}
	pl.keys("end")
	rewritten := append([]event.Event{}, evs[7:]...)
	pl.tm.Send(tui.EventsMsg{From: 7, Events: rewritten, Done: true})
	var lines []string
	pl.look(func(m *tui.Model) { lines = m.TimelineLines() })
	want := renderLines(plainRender(evs, len(evs), 120-49))
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("live view after the rewrite (-want +got):\n%s", diff)
	}
	if view := pl.screen(); !strings.Contains(view, "input ended") {
		t.Errorf("the end of input is not shown:\n%s", view)
	}
	assertGolden(t, "live-ended", pl.screen())
}

// TestInputError: a trace that fails to import opens with the error shown,
// and the model reports it for a non-zero exit.
func TestInputError(t *testing.T) {
	tests := []struct {
		name string
		evs  []event.Event
		live bool
	}{
		{"nothing imported", nil, false},
		{"failed part-way", scenarioEvents(t, "seed000-mixed-flow")[:3], false},
		{"live input failed", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := errors.New("trace.jsonl:4: seq: must be strictly increasing")
			m := tui.New(tt.evs, tui.Options{Title: "trace.jsonl", Err: err, Live: tt.live})
			pl := startPlayer(t, m, 100, 16, colorprofile.ASCII)
			if tt.live {
				pl.tm.Send(tui.EventsMsg{Done: true, Err: err})
			}
			view := pl.screen()
			checkScreen(t, view, 100, 16)
			if !strings.Contains(view, "trace.jsonl:4: seq:") {
				t.Errorf("the error is not shown:\n%s", view)
			}
			pl.keys("q")
			if m.Err() == nil {
				t.Error("Err() = nil, want the input error")
			}
		})
	}
	m := tui.New(nil, tui.Options{Title: "broken.jsonl", Err: errors.New("broken.jsonl: cannot detect the format")})
	assertGolden(t, "import-error", startPlayer(t, m, 80, 14, colorprofile.ASCII).screen())
}
