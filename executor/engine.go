package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/timeline"
)

// simTools are the tool names the simulator draws from (sim/generate.go):
// every run offers them.
var simTools = []string{"grep", "read", "bash", "glob", "edit_file", "web_fetch", "todowrite"}

// Engine drives a library through a trace: a harness.Engine (Apply,
// Finish, Timeline) whose timeline is the adapter's UI. Its batch mode
// (Replay, ReplayFinal), which the harness uses whenever it replays a whole trace, ends
// a model answer right after its batch's last call; Apply, which sees no
// further than one event, ends it when the next event is not a call of the
// same batch. Err reports a library that did not settle (Config.Patience)
// or panicked; Close cancels what is still running.
type Engine struct {
	lib Library
	cfg Config
	mu  sync.Mutex
	ui  *UI

	now, seq int64
	turn     *Turn   // the run of the assistant turn being fed
	runs     []*Turn // every run started, for Close
	prompt   string
	role     string
	batch    *event.Event // the last call of an answer not yet ended
	err      error
	// settledAt is the UI's version when the last event had settled,
	// at seq settledSeq: the UI must not change before the next event.
	settledAt  uint64
	settledSeq int64

	// The driver (the goroutine feeding events) waits for until to hold;
	// whoever makes it hold sends on wake, once (Engine.poke). Each parked
	// point of the library has a channel of its own (Turn.wake, call.wake):
	// a change wakes only the goroutine it concerns.
	until func() bool
	wake  chan struct{}
	timer *time.Timer // Config.Patience, reused by every wait

	// spawn runs the library's runs and tasks on goroutines: the package's
	// pool of runners (spawn). A test in a synctest bubble runs each on a
	// goroutine of its own instead (go f()): the pool's goroutines and
	// channel stand outside the bubble, whose clock would never move.
	spawn func(func())
}

// New returns an engine that runs lib, configured by cfg, as a trace says.
func New(lib Library, cfg Config) *Engine {
	if cfg.Patience <= 0 {
		cfg.Patience = 5 * time.Second
	}
	e := &Engine{lib: lib, cfg: cfg, wake: make(chan struct{}, 1), spawn: spawn}
	e.ui = &UI{e: e}
	return e
}

// CopiesEvents reports true: the engine keeps nothing of an event but
// copies, so the harness may reuse the event's value once Apply returns.
func (e *Engine) CopiesEvents() bool { return true }

// Apply feeds one event to the library and waits until it has settled.
func (e *Engine) Apply(ev *event.Event) { e.step(ev, nil, false) }

// Replay applies a whole trace (and, with finish, the end of the stream)
// and returns the timeline after each event; it stops at the first event
// the library failed on, with the error.
func (e *Engine) Replay(evs []event.Event, finish bool) ([]*timeline.Timeline, error) {
	tls := make([]*timeline.Timeline, 0, len(evs)+1)
	for i := range evs {
		e.step(&evs[i], evs[i+1:], true)
		if err := e.Err(); err != nil {
			return tls, err
		}
		tls = append(tls, e.Timeline())
	}
	if finish {
		e.Finish()
		if err := e.Err(); err != nil {
			return tls, err
		}
		tls = append(tls, e.Timeline())
	}
	return tls, nil
}

// ReplayFinal applies a whole trace and the end of the stream, as Replay
// does, and returns only the last timeline: what the harness asks when it
// needs no more (a second run for the determinism and order oracles).
func (e *Engine) ReplayFinal(evs []event.Event) (*timeline.Timeline, error) {
	for i := range evs {
		e.step(&evs[i], evs[i+1:], true)
		if err := e.Err(); err != nil {
			return nil, err
		}
	}
	e.Finish()
	if err := e.Err(); err != nil {
		return nil, err
	}
	return e.Timeline(), nil
}

// Finish ends the stream: an answer still being fed ends; everything else
// stays as the UI shows it (the connection dropped).
func (e *Engine) Finish() {
	if e.Err() == nil {
		e.endAnswer()
	}
}

// Timeline returns a copy of what the UI shows now; items that did not
// change since the last copy are shared with it (read them, do not modify
// them).
func (e *Engine) Timeline() *timeline.Timeline {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.ui.snapshot()
}

// Err returns why the library could not be driven: it did not settle, or
// it panicked.
func (e *Engine) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// Close cancels every run still going and waits, with Config.Patience,
// for each to return.
func (e *Engine) Close() error {
	for _, t := range e.runs {
		e.mu.Lock()
		t.stop()
		for _, cs := range t.calls {
			for _, c := range cs {
				c.give(order{end: &Outcome{Err: context.Canceled}})
			}
		}
		e.mu.Unlock()
		e.wait(func() bool { return t.done })
	}
	return nil
}

// step applies one event; ahead (when known) holds the events after it.
func (e *Engine) step(ev *event.Event, ahead []event.Event, known bool) {
	e.mu.Lock()
	e.drifted(ev.Seq)
	e.now, e.seq = ev.T, ev.Seq
	failed := e.err != nil
	e.mu.Unlock()
	if failed {
		return
	}
	defer e.locked(func() { e.settledAt, e.settledSeq = e.ui.ver, ev.Seq })
	if e.batch != nil && !sameBatch(e.batch, ev) {
		e.endAnswer()
	}
	switch ev.Kind {
	case event.KindTurnStart:
		e.locked(func() { e.ui.open = false })
		e.role = ev.Role
		if ev.Role != event.RoleUser {
			e.ensure(ahead)
		}
	case event.KindUser:
		e.locked(func() { e.ui.user(ev.Text) })
		e.prompt = ev.Text
	case event.KindText:
		e.feed(ahead, Part{Kind: PartText, Text: ev.Text})
	case event.KindThinking:
		e.feed(ahead, Part{Kind: PartThinking, Text: ev.Text})
	case event.KindToolStart:
		e.call(ev, ahead, known)
	case event.KindToolDone:
		e.order(ev.ID, order{end: outcome(ev)})
	case event.KindPermission:
		e.order(ev.ID, order{ask: ev.State == event.PermissionAsked, grant: ev.State == event.PermissionGranted, deny: ev.State == event.PermissionDenied})
	case event.KindCancel:
		e.cancel(ev.Reason)
	case event.KindTurnEnd:
		if e.role != event.RoleUser {
			e.endTurn()
		}
		e.role = ""
		e.locked(func() { e.ui.open = false })
	}
}

// sameBatch reports whether ev is another call of last's batch: a start
// with the same batch id (none for both: consecutive starts).
func sameBatch(last, ev *event.Event) bool {
	return ev.Kind == event.KindToolStart && ev.Batch == last.Batch
}

// outcome is how the trace ends a call.
func outcome(ev *event.Event) *Outcome {
	if ev.OK {
		return &Outcome{Output: ev.Output}
	}
	return &Outcome{Err: errors.New(ev.Error)}
}

// call feeds a tool call to the model's answer, and ends the answer after
// the batch's last call (known: ahead holds the rest of the trace).
func (e *Engine) call(ev *event.Event, ahead []event.Event, known bool) {
	e.feed(ahead, Part{Kind: PartCall, ID: ev.ID, Name: ev.Name, Args: bytes.Clone(ev.Args)})
	last := *ev
	e.batch = &last
	if known && (len(ahead) == 0 || !sameBatch(ev, &ahead[0])) {
		e.endAnswer()
	}
}

// drifted fails the engine, as toolsim's own fault, when the UI changed
// after the event of seq settledSeq had settled and before the event of
// seq reached the library: the kit judged the library settled while it
// was still at work, and took a timeline too early. (A library that acts
// with no input, on a timer, would look the same; an executor library
// gets every input from the kit.) The caller holds the lock.
func (e *Engine) drifted(seq int64) {
	if e.err != nil || e.settledSeq == 0 || e.ui.ver == e.settledAt {
		return
	}
	e.err = &harness.ToolsimFault{Part: "executor kit", Detail: fmt.Sprintf(
		"the UI changed after seq %d had settled, before seq %d reached the library: the kit took the timeline before the library was done (see executor/turn.go, settled)",
		e.settledSeq, seq)}
}

func (e *Engine) locked(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	f()
}
