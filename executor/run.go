package executor

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/toolsim/toolsim/event"
)

// ensure returns the run of the assistant turn being fed, starting one
// (the library's Run on a goroutine of its own) when there is none or the
// last one returned, and waits until the library asks its model.
func (e *Engine) ensure(ahead []event.Event) *Turn {
	if t := e.turn; t != nil {
		e.mu.Lock()
		done := t.done
		e.mu.Unlock()
		if !done {
			return t
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	t := &Turn{Prompt: e.prompt, Tools: toolNames(ahead), UI: e.ui, e: e, cancel: cancel,
		calls: map[string][]*call{}, wake: make(chan struct{}, 1), entered: make(chan struct{}, 1), shown: make(chan struct{}, 1)}
	e.turn = t
	e.runs = append(e.runs, t)
	e.spawn(func() { e.run(ctx, t) })
	e.settle(t)
	return t
}

// toolNames lists the simulator's tool names and every other name the
// turn's calls use, up to its end.
func toolNames(ahead []event.Event) []string {
	names := slices.Clone(simTools)
	for i := range ahead {
		ev := &ahead[i]
		if ev.Kind == event.KindTurnEnd {
			break
		}
		if ev.Kind == event.KindToolStart && !slices.Contains(names, ev.Name) {
			names = append(names, ev.Name)
		}
	}
	return names
}

// run runs the library for turn t; a panic is the engine's failure.
func (e *Engine) run(ctx context.Context, t *Turn) {
	defer func() {
		r := recover()
		e.mu.Lock()
		if r != nil && e.err == nil {
			e.err = fmt.Errorf("seq %d: the library panicked: %v", e.seq, r)
		}
		t.done = true
		e.poke()
		e.mu.Unlock()
	}()
	_ = e.lib.Run(ctx, t)
}

// feed adds a part to the model's answer and waits until the library took it.
func (e *Engine) feed(ahead []event.Event, p Part) {
	t := e.ensure(ahead)
	e.mu.Lock()
	t.give(p)
	e.mu.Unlock()
	e.settle(t)
}

// endAnswer ends the answer being fed: the library runs its calls.
func (e *Engine) endAnswer() {
	if e.batch == nil || e.turn == nil {
		e.batch = nil
		return
	}
	e.batch = nil
	e.feed(nil, Part{Kind: PartEnd})
}

// endTurn ends the assistant turn: a library waiting on its model gets the
// end of an answer with no calls, its last; a library still running tools
// is left as it is.
func (e *Engine) endTurn() {
	t := e.turn
	e.turn = nil
	if t == nil {
		return
	}
	e.mu.Lock()
	idle := !t.done && (t.streaming || !t.asked)
	if idle {
		t.give(Part{Kind: PartEnd})
	}
	e.mu.Unlock()
	if idle {
		e.settle(t)
	}
}

// order passes the trace's word on call id to its tool: at once when it
// is parked there, else when the library starts it.
func (e *Engine) order(id string, o order) {
	t := e.turn
	if t == nil {
		return
	}
	e.mu.Lock()
	t.send(id, o)
	e.mu.Unlock()
	e.settle(t)
}

// cancel is the user's cancel: the run's context is cancelled, the model
// stream ends, and each call parked in its tool sees the cancel in call
// order, the library settling after each. With no run going, the app has
// nothing to cancel.
func (e *Engine) cancel(reason string) {
	e.locked(func() { e.ui.reason = reason })
	t := e.turn
	e.batch = nil
	if t == nil {
		return
	}
	e.mu.Lock()
	if t.done {
		e.mu.Unlock()
		return
	}
	t.stop()
	step := slices.Clone(t.step)
	e.mu.Unlock()
	for _, c := range step {
		e.mu.Lock()
		live := c.entered && !c.returned && !c.ended()
		if live {
			c.give(order{end: &Outcome{Err: context.Canceled}})
		}
		e.mu.Unlock()
		if live {
			e.settle(t)
		}
	}
	e.settle(t)
}

// settle waits until the library has done all it can until toolsim acts
// again (Turn.settled); past Config.Patience the engine fails, naming what
// it waited for.
func (e *Engine) settle(t *Turn) {
	if !e.wait(t.settled) {
		e.mu.Lock()
		if e.err == nil {
			e.err = fmt.Errorf("seq %d: the library did not settle within %v: %s", e.seq, e.cfg.Patience, t.describe())
		}
		e.mu.Unlock()
	}
}

// wait waits until ok holds, at most Config.Patience; it reports whether
// ok held. The clock only bounds a library that never gets there: the
// driver sleeps on its own channel, which only the change that makes ok
// hold wakes (poke).
func (e *Engine) wait(ok func() bool) bool {
	e.mu.Lock()
	if ok() {
		e.mu.Unlock()
		return true
	}
	e.until = ok
	e.mu.Unlock()
	if e.timer == nil {
		e.timer = time.NewTimer(e.cfg.Patience)
	} else {
		e.timer.Reset(e.cfg.Patience)
	}
	select {
	case <-e.wake:
		e.timer.Stop()
		return true
	case <-e.timer.C:
	}
	e.mu.Lock()
	e.until = nil
	held := ok()
	e.mu.Unlock()
	select { // a poke that came with the clock
	case <-e.wake:
	default:
	}
	return held
}

// poke wakes the driver if what it waits for holds now. Every change that
// may settle the library calls it: a stream waiting or ending, a tool
// parking or returning, a result reported, a run over. The caller holds
// the lock.
func (e *Engine) poke() {
	if e.until != nil && e.until() {
		e.until = nil
		signal(e.wake)
	}
}

// signal wakes a parked goroutine through its own channel; a wake-up
// already pending is enough.
func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// runners are goroutines that ran a library and wait for the next run:
// their stacks have already grown to the library's depth, which a fresh
// goroutine would grow again, copying it, on every run. One left idle for
// runnerIdle ends.
var runners = make(chan func())

const runnerIdle = time.Second

// spawn runs f on an idle runner, or on a new one.
func spawn(f func()) {
	select {
	case runners <- f:
	default:
		go runner(f)
	}
}

func runner(f func()) {
	var idle *time.Timer
	for {
		f()
		if idle == nil {
			idle = time.NewTimer(runnerIdle)
		} else {
			idle.Reset(runnerIdle)
		}
		select {
		case f = <-runners:
			idle.Stop()
		case <-idle.C:
			return
		}
	}
}
