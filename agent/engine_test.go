package agent

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/term"
)

// TestProject leaves out the rows of calls a run starts later: the last
// ones of each id, as many as starts remain.
func TestProject(t *testing.T) {
	rows := []browser.Row{tool("a", "grep", "running"), tool("b", "read", "running"), tool("a", "grep", "running"), tool("c", "bash", "ok")}
	tests := []struct {
		name  string
		later map[string]int
		want  []browser.Row
	}{
		{"nothing later", nil, rows},
		{"b later", map[string]int{"b": 1}, []browser.Row{rows[0], rows[2], rows[3]}},
		{"the second a later", map[string]int{"a": 1}, []browser.Row{rows[0], rows[1], rows[3]}},
		{"more later than shown", map[string]int{"c": 2}, rows[:3]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, project(rows, tt.later)); diff != "" {
				t.Errorf("projected rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNth names rows by tool name and order, and a row beyond the calls
// of its tool as one no call started.
func TestNth(t *testing.T) {
	asked := []Asked{{"a", "grep"}, {"b", "read"}, {"c", "grep"}}
	tests := []struct {
		name, tool string
		k          int
		want       string
	}{
		{"first grep", "grep", 1, "a"},
		{"second grep", "grep", 2, "c"},
		{"third grep: never started", "grep", 3, "grep#3"},
		{"a tool never asked", "bash", 1, "bash#1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := nth(asked, tt.tool, tt.k); got != tt.want {
				t.Errorf("nth(%q, %d) = %q, want %q", tt.tool, tt.k, got, tt.want)
			}
		})
	}
}

// TestStyles reads colours and dim placeholders off styled rows.
func TestStyles(t *testing.T) {
	green := "\x1b[38;2;78;186;101m●\x1b[m \x1b[1mtoolsim - read"
	red := "\x1b[38;2;255;107;128m●\x1b[m x"
	grey := "\x1b[38;2;153;153;153m●\x1b[m x"
	reset := "\x1b[38;2;255;0;0mA\x1b[m ●"
	for _, tt := range []struct {
		name         string
		styled       string
		green, red   bool
		wantColoured bool
	}{
		{"green", green, true, false, true},
		{"red", red, false, true, true},
		{"grey", grey, false, false, true},
		{"reset before the mark", reset, false, false, false},
		{"no mark", "plain", false, false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, ok := colourOf(tt.styled, "●")
			if ok != tt.wantColoured || c.green() != tt.green || c.red() != tt.red {
				t.Errorf("colourOf = %+v, %v: green %v red %v; want coloured %v green %v red %v", c, ok, c.green(), c.red(), tt.wantColoured, tt.green, tt.red)
			}
		})
	}
	for _, tt := range []struct {
		name, styled string
		want         bool
	}{
		{"placeholder", "\x1b[1m›\x1b[22m \x1b[2mAsk Codex to do anything", true},
		{"typed", "\x1b[1m›\x1b[22m toolsim turn 1", false},
		{"empty", "›", true},
		{"dim then reset", "› \x1b[2m\x1b[22mtyped", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := dimAfter(tt.styled, "›"); got != tt.want {
				t.Errorf("dimAfter = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestReadUnshownState gives a row whose state the screen does not tell
// the state SPEC expects for its call, each expected row once, and a row
// SPEC shows none of running; a state the screen tells is kept, and its
// row still pairs with its own call: the second row of a reused id takes
// the second call's state (an opencode campaign once read a reused id's
// new grey row as the cancelled call before it).
func TestReadUnshownState(t *testing.T) {
	shown := []browser.Row{tool("a", "grep", ""), tool("a", "grep", ""), tool("b", "read", "failed"), tool("c", "bash", ""),
		tool("d", "glob", "interrupted"), tool("d", "glob", "")}
	e := &Engine{app: &App{P: &Profile{Read: func(term.Snapshot, []Asked) []browser.Row {
		return append([]browser.Row(nil), shown...)
	}}}}
	want := []browser.Row{tool("a", "grep", "ok"), tool("a", "grep", "running"), tool("b", "read", "ok"),
		tool("d", "glob", "interrupted"), tool("d", "glob", "ok")}
	got := e.read(term.Snapshot{}, want)
	wantRows := []browser.Row{tool("a", "grep", "ok"), tool("a", "grep", "running"), tool("b", "read", "failed"), tool("c", "bash", "running"),
		tool("d", "glob", "interrupted"), tool("d", "glob", "ok")}
	if diff := cmp.Diff(wantRows, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}

// TestExpectedReusedID keeps an ended call's row when the run being
// started reuses its id later: SPEC has not seen that start yet, so
// nothing of it is left out (an opencode campaign once read the old row
// as running because its row was dropped from SPEC's picture).
func TestExpectedReusedID(t *testing.T) {
	e := newEngine(nil, Timing{})
	oneDoneOneRunning(e, "call_2", "grep", "call_7", "web_fetch")
	e.run["call_2"] = 1 // the run of call_7 starts call_2 again after it
	want := []browser.Row{tool("call_2", "grep", "ok"), tool("call_7", "web_fetch", "running")}
	if diff := cmp.Diff(want, e.expected()); diff != "" {
		t.Errorf("expected rows (-want +got):\n%s", diff)
	}
}

// oneDoneOneRunning feeds e's reference engine an assistant turn in
// which call done (tool doneName) returned ok, then call running (tool
// runningName) started.
func oneDoneOneRunning(e *Engine, done, doneName, running, runningName string) {
	for _, ev := range []event.Event{
		{Seq: 1, Kind: event.KindTurnStart, Role: event.RoleAssistant},
		{Seq: 2, Kind: event.KindToolStart, ID: done, Name: doneName},
		{Seq: 3, Kind: event.KindToolDone, ID: done, OK: true},
		{Seq: 4, Kind: event.KindToolStart, ID: running, Name: runningName},
	} {
		e.ref.Apply(&ev)
	}
}

// TestReads reads the screen after each event that reaches the app, but
// once for a run of progress events (after its last) and not after a
// later start of a run whose row the last read already showed.
func TestReads(t *testing.T) {
	progress := event.Event{Seq: 9, Kind: event.KindToolProgress, ID: "a"}
	done := event.Event{Seq: 9, Kind: event.KindToolDone, ID: "a"}
	shown := []browser.Row{tool("a", "grep", "running"), tool("b", "read", "running")}
	tests := []struct {
		name   string
		ev     event.Event
		first  bool
		ahead  []event.Event
		rows   []browser.Row
		starts map[string]int
		want   bool
	}{
		{"progress before a progress", progress, false, []event.Event{progress}, nil, nil, false},
		{"progress before a result", progress, false, []event.Event{done}, nil, nil, true},
		{"progress last of the batch", progress, false, nil, nil, nil, true},
		{"result before a progress", done, false, []event.Event{progress}, nil, nil, true},
		{"first start of a run", event.Event{Kind: event.KindToolStart, ID: "a"}, true, nil, shown, map[string]int{"a": 1}, true},
		{"later start, its row shown", event.Event{Kind: event.KindToolStart, ID: "b"}, false, nil, shown, map[string]int{"a": 1, "b": 1}, false},
		{"later start, no row yet", event.Event{Kind: event.KindToolStart, ID: "c"}, false, nil, shown, map[string]int{"a": 1, "b": 1, "c": 1}, true},
		{"later start reusing a shown id", event.Event{Kind: event.KindToolStart, ID: "a"}, false, nil, shown, map[string]int{"a": 2, "b": 1}, true},
		{"turn start", event.Event{Kind: event.KindTurnStart}, false, nil, nil, nil, false},
		{"cancel", event.Event{Kind: event.KindCancel}, false, nil, nil, nil, true},
		{"turn end", event.Event{Kind: event.KindTurnEnd}, false, nil, nil, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := &Engine{ahead: tt.ahead, rows: tt.rows, starts: tt.starts}
			if got := e.reads(&tt.ev, tt.first); got != tt.want {
				t.Errorf("reads = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestFinishReadsOnlyAStaleScreen: at the end of the stream the screen
// is not read again when it was read after the last event (this engine
// has no app: a read would panic), and the timeline is the rows read.
func TestFinishReadsOnlyAStaleScreen(t *testing.T) {
	rows := []browser.Row{tool("a", "grep", "ok")}
	e := &Engine{ref: engine.New(engine.Options{}), rows: rows, fresh: true, start: map[string]int64{"a": 0}}
	e.Finish()
	if err := e.Failed(); err != nil {
		t.Fatalf("Finish after a read: %v", err)
	}
	if got := len(e.Timeline().Items); got != 1 {
		t.Errorf("Finish after a read: %d timeline items, want the one row read last", got)
	}
}

// TestRowsDiffer: the resume oracle names the first difference between
// the live rows and the resumed ones, and nothing when they match.
func TestRowsDiffer(t *testing.T) {
	live := []browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "ok")}
	tests := []struct {
		name    string
		resumed []browser.Row
		want    string
	}{
		{"the same", live, ""},
		{"a status", []browser.Row{tool("call_1", "grep", "interrupted"), tool("call_2", "read", "ok")},
			`call "call_1" shows interrupted, live it showed running`},
		{"another order", []browser.Row{tool("call_2", "read", "ok"), tool("call_1", "grep", "running")},
			`row 1 is call "call_2", live call "call_1"`},
		{"a row gone", live[:1], `the row of call "call_2" is gone (ok live)`},
		{"the first row gone", live[1:], `the row of call "call_1" is gone (running live)`},
		{"a row more first", append([]browser.Row{tool("grep#2", "grep", "failed")}, live...),
			`a row of call "grep#2" was not shown live (failed)`},
		{"a row more", append(live[:2:2], tool("grep#2", "grep", "failed")),
			`a row of call "grep#2" was not shown live (failed)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := rowsDiffer(live, tt.resumed); got != tt.want {
				t.Errorf("rowsDiffer = %q, want %q", got, tt.want)
			}
		})
	}
}
