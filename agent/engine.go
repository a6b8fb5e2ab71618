package agent

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/mcptools"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/timeline"
)

// Timing are the engine's waits on the wall clock, every one bounded
// (docs/agents.md, The settle rule).
type Timing struct {
	// Request bounds the wait for the app's next model request.
	Request time.Duration
	// Calls bounds the wait for the MCP calls of a model response.
	Calls time.Duration
	// Patience bounds the wait for the screen to show what SPEC expects
	// after an event; the screen is read after it either way.
	Patience time.Duration
	// Quiet is how long the rows must stay unchanged to count as settled.
	Quiet time.Duration
	// Settle bounds the wait for the rows to settle.
	Settle time.Duration
}

// DefaultTiming is the timing toolsim-agent uses.
var DefaultTiming = Timing{Request: 30 * time.Second, Calls: 10 * time.Second,
	Patience: 2 * time.Second, Quiet: 60 * time.Millisecond, Settle: 10 * time.Second}

// Engine is an App as a toolsim engine (engineproto.Engine, Failer and
// Previewer): each event is acted out at the app's real boundaries, and
// the tool rows its screen then shows are the timeline. The first failure
// (the app crashed or hung, a boundary oracle failed) sticks: every later
// call does nothing and Failed returns it.
type Engine struct {
	app    *App
	timing Timing
	ref    *engine.Engine // what SPEC expects: only to know when to read
	ahead  []event.Event  // the events previewed and not yet applied
	run    map[string]int // starts of the current run not yet applied, by id
	// runStarts are the starts of the current run, all of them.
	runStarts []event.Event
	starts    map[string]int // tool_start events applied, by id
	calls     map[string][]*mcptools.Call
	sent      map[*mcptools.Call]mcptools.Outcome
	// progressN counts the progress sent per call (its value must grow).
	progressN map[*mcptools.Call]int
	step      []string // the call ids of the last model response
	asked     []Asked  // every call the model sent in this conversation
	turn      turnState
	pend      *modelapi.Pending
	rows      []browser.Row
	applied   []event.Event // every event applied, for the session-log oracle
	crashed   bool          // Crash ran: nothing may follow
	tl        *timeline.Timeline
	start     map[string]int64
	now       int64
	err       error
	// diverged is set when the last look missed SPEC's picture.
	diverged bool
	// fresh is set when the screen was read after the last event.
	fresh bool
	// turnIDs are the ids the current turn started.
	turnIDs map[string]bool
}

// turnState is where the conversation is.
type turnState struct {
	role      string
	open      bool // a prompt was typed and its turn has not ended
	cancelled bool
	prompts   int
	typed     string // the prompt typed that no model request has answered yet
}

// NewEngine starts a fresh conversation in the app and returns it as an
// engine.
func NewEngine(a *App, t Timing) *Engine {
	e := newEngine(a, t)
	e.err = a.Fresh(t)
	return e
}

// newEngine is an engine over a with nothing applied yet, its app left
// as it stands.
func newEngine(a *App, t Timing) *Engine {
	return &Engine{app: a, timing: t, ref: engine.New(engine.Options{}),
		run: map[string]int{}, starts: map[string]int{}, calls: map[string][]*mcptools.Call{},
		sent: map[*mcptools.Call]mcptools.Outcome{}, progressN: map[*mcptools.Call]int{}, start: map[string]int64{}, turnIDs: map[string]bool{},
		tl: &timeline.Timeline{Items: []*timeline.Item{}, Diagnostics: []timeline.Diagnostic{}}}
}

// Preview keeps the events Serve is about to apply: a run of tool_start
// is one model response, so the first start must know the others.
func (e *Engine) Preview(evs []event.Event) { e.ahead = append(e.ahead[:0], evs...) }

// Apply acts one event out and reads the screen.
func (e *Engine) Apply(ev *event.Event) {
	if e.afterCrash("an event") {
		return
	}
	e.now = ev.T
	first := e.firstOfRun(ev)
	if u := e.carried(ev, first); u != nil && e.err == nil {
		e.err = u
	}
	if e.err == nil {
		e.err = e.act(ev, first)
	}
	e.track(ev)
	e.applied = append(e.applied, copyEvent(ev))
	e.fresh = e.err == nil && e.reads(ev, first)
	if e.fresh {
		e.err = e.look(fmt.Sprintf("after %s (seq %d)", ev.Kind, ev.Seq))
	}
	e.timeline()
}

// track keeps what the engine knows once ev was acted out: SPEC's
// picture, the starts applied, the ids of the turn, the starts of the
// run still to come and the events previewed still to come.
func (e *Engine) track(ev *event.Event) {
	e.ref.Apply(ev)
	switch ev.Kind {
	case event.KindTurnStart:
		clear(e.turnIDs)
	case event.KindToolStart:
		e.starts[ev.ID]++
		e.turnIDs[ev.ID] = true
		if e.run[ev.ID] > 0 {
			e.run[ev.ID]--
		}
	}
	if len(e.ahead) > 0 && e.ahead[0].Seq == ev.Seq {
		e.ahead = e.ahead[1:]
	}
}

// Finish is the end of the stream: nothing reaches the app; the screen
// is read once more, unless it was read after the last event. With
// Options.CompareLog the app's own session log is read and compared
// (checkSessionLog); with Options.Resume the resume oracle then quits and
// resumes the app (checkResume), its finding reported before the session
// log's; the timeline stays the live one.
func (e *Engine) Finish() {
	if e.afterCrash("the end of the stream") {
		return
	}
	e.ref.Finish()
	if e.err == nil && !e.fresh {
		e.err = e.look("at the end of the stream")
	}
	e.timeline()
	if e.err != nil || e.app == nil {
		return
	}
	// The session log is read before the resume (a resumed app may write
	// another), and its divergence reported after the resume oracle's: a
	// scenario's resume finding stays its first.
	logged := e.checkSessionLog()
	if e.app.opts.Resume {
		e.err = e.checkResume()
	}
	e.err = errors.Join(e.err, logged) // a signature keeps the first line: the resume finding's
}

// Timeline is the tool rows the screen showed after the last call.
func (e *Engine) Timeline() *timeline.Timeline { return e.tl }

// Failed returns the first failure, or nil.
func (e *Engine) Failed() error { return e.err }

// firstOfRun reports whether ev starts a run of tool_start events (a
// model response) and, if so, keeps the run: ev and the starts previewed
// right after it (a run of one when ev was not previewed).
func (e *Engine) firstOfRun(ev *event.Event) bool {
	if ev.Kind != event.KindToolStart || e.run[ev.ID] > 0 {
		return false
	}
	clear(e.run)
	e.runStarts = append(e.runStarts[:0], *ev)
	if len(e.ahead) > 0 && e.ahead[0].Seq == ev.Seq {
		for _, next := range e.ahead[1:] {
			if next.Kind != event.KindToolStart {
				break
			}
			e.runStarts = append(e.runStarts, next)
		}
	}
	for _, s := range e.runStarts {
		e.run[s.ID]++
	}
	return true
}

// reads reports whether the screen is read after ev (docs/agents.md, The
// settle rule); first is whether ev began a run of starts.
// Turn and user events are not acted out. A later start of a run was
// acted out at the first: the screen is read again only when the last
// read showed no row for it (Codex draws each call's row when the call
// begins). A run of progress events is read once, after its last (the
// next event, previewed, is not a progress): SPEC's picture does not
// change within it, and a row a progress turned wrong still shows then.
func (e *Engine) reads(ev *event.Event, first bool) bool {
	switch ev.Kind {
	case event.KindToolStart:
		return first || e.shownRows(ev.ID) < e.starts[ev.ID]
	case event.KindToolProgress:
		return len(e.ahead) == 0 || e.ahead[0].Kind != event.KindToolProgress
	case event.KindToolDone, event.KindCancel, event.KindTurnEnd:
		return true
	}
	return false
}

// shownRows counts the rows of id the last read showed.
func (e *Engine) shownRows(id string) int {
	n := 0
	for _, r := range e.rows {
		if r.Kind == "tool" && r.ID == id {
			n++
		}
	}
	return n
}

// timeline turns the last rows into the timeline, without the rows of
// calls the current run starts later (they are on the screen already:
// the app shows a model response's calls at once).
func (e *Engine) timeline() {
	if e.err != nil {
		return
	}
	rows := project(e.rows, e.run)
	tl, err := browser.Timeline(rows, e.now, e.start)
	if err != nil {
		e.err = fmt.Errorf("reading %s's screen: %w", e.app.P.Name, err)
		return
	}
	e.tl = tl
}

// project drops, for each id, the last later[id] tool rows with it.
func project(rows []browser.Row, later map[string]int) []browser.Row {
	if len(later) == 0 {
		return rows
	}
	drop := map[string]int{}
	for id, n := range later {
		drop[id] = n
	}
	out := make([]browser.Row, 0, len(rows))
	for i := len(rows) - 1; i >= 0; i-- {
		if r := rows[i]; drop[r.ID] > 0 {
			drop[r.ID]--
			continue
		}
		out = append(out, rows[i])
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// copyEvent is a copy of ev that shares no memory with it: Serve's
// decoder reuses what it decoded into.
func copyEvent(ev *event.Event) event.Event {
	c := *ev
	c.Args, c.Details = bytes.Clone(ev.Args), bytes.Clone(ev.Details)
	if ev.DurationMS != nil {
		d := *ev.DurationMS
		c.DurationMS = &d
	}
	c.Extra = nil
	for _, f := range ev.Extra {
		c.Extra = append(c.Extra, event.Field{Key: f.Key, Value: bytes.Clone(f.Value)})
	}
	return c
}

// afterCrash reports whether the engine was crashed (Crash), and makes
// what came after it (an event, the end of the stream: the protocol
// sends none) the engine's failure: the conversation died with the app.
func (e *Engine) afterCrash(what string) bool {
	if !e.crashed {
		return false
	}
	if e.err == nil {
		e.err = fmt.Errorf("%s after the crash: the conversation died with %s's process; nothing may follow a crash", what, e.app.P.Name)
	}
	return true
}
