package executor

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync"
)

// Turn is one run of the library: the assistant turn it answers. The
// adapter's [Library.Run] gets it and hands the library a model built on
// Stream and tools built on Tool; all of its methods may be called from
// any goroutine.
type Turn struct {
	// Prompt is the user's last message ("" when the trace has none).
	Prompt string
	// Tools names the tools the library must offer: the simulator's, and
	// every other name the turn calls (an app declares its tools before
	// it runs).
	Tools []string
	// UI is where the adapter records what the library's callbacks say.
	UI *UI

	e         *Engine // its lock guards every field below
	cancel    context.CancelFunc
	cancelled bool
	done      bool
	parts     []Part  // fed, not yet streamed
	asked     bool    // the library has asked the model at least once
	streaming bool    // a Stream is being ranged over
	waiting   bool    // ... and waits for its next part
	step      []*call // the calls of the last answer
	calls     map[string][]*call
	wake      chan struct{} // the stream's: a part was fed, or the run stopped
	entries   int           // tools entered so far (Tool)
	entered   chan struct{} // RunTasks': a tool entered
	shown     chan struct{} // Config.AwaitShown: the UI showed the last part (Shown)
}

// call is one tool call the kit gates, in the order of its states.
type call struct {
	id       string
	todo     []order       // what the trace said, not yet done
	entered  bool          // its tool is running (Turn.Tool was called)
	parked   bool          // ... and waits on the kit
	returned bool          // its tool returned, for good
	failed   bool          // ... with an error (failed, denied or cancelled)
	reported bool          // the library reported its result (Turn.Reported)
	paused   bool          // Config.PauseToAsk: its tool returned to ask its permission; not over
	granted  bool          // ... and the user granted it: its tool is entered again
	awaited  bool          // ... and the adapter waits for its answer among others' (Answers)
	wake     chan struct{} // the parked tool's (or Answer's): an order came
}

// order is what the trace tells a gated call to do next.
type order struct {
	ask, grant, deny bool
	end              *Outcome // finish with this outcome
}

// Stream is the scripted model's answer to one request: it yields the
// parts the trace holds for it, blocking until toolsim feeds the next,
// and ends after a PartEnd. When the user cancels, the answer ends with a
// PartEnd whose Err is context.Canceled.
func (t *Turn) Stream(ctx context.Context) iter.Seq[Part] {
	return func(yield func(Part) bool) {
		e := t.e
		e.mu.Lock()
		defer e.mu.Unlock()
		t.asked, t.streaming, t.step = true, true, nil
		defer func() { t.streaming, t.waiting = false, false; e.poke() }()
		for {
			for len(t.parts) == 0 && !t.cancelled {
				t.waiting = true
				e.poke()
				e.mu.Unlock()
				<-t.wake
				e.mu.Lock()
			}
			t.waiting = false
			p := Part{Kind: PartEnd, Err: context.Canceled}
			if len(t.parts) > 0 {
				p, t.parts = t.parts[0], t.parts[1:]
			}
			if p.Kind == PartCall {
				t.step = append(t.step, t.issue(p.ID))
			}
			if p.Kind == PartEnd {
				// The answer is over once its end is taken, even while
				// the adapter, still inside the range, hands it on to
				// the library, which may run the calls from there.
				t.streaming = false
				e.poke()
			}
			e.mu.Unlock()
			if e.cfg.AwaitShown {
				select {
				case <-t.shown: // a Shown for no part of this answer: stale
				default:
				}
			}
			ok := yield(p)
			if ok && p.Kind != PartEnd && e.cfg.AwaitShown {
				select {
				case <-t.shown:
				case <-ctx.Done():
				}
			}
			e.mu.Lock()
			if !ok || p.Kind == PartEnd {
				return
			}
		}
	}
}

// Shown tells the kit the UI has shown the last part the model's answer
// pushed, the end excepted (Config.AwaitShown): Stream goes on to the next
// part only then. Say it once per part. A Shown said for no part is
// dropped when it comes before the kit hands over the next part; one that
// comes while the next part is being handed over cannot be told from that
// part's own, and lets it go before it is shown.
func (t *Turn) Shown() { signal(t.shown) }

// issue records a call the model made.
func (t *Turn) issue(id string) *call {
	c := &call{id: id, wake: make(chan struct{}, 1)}
	t.calls[id] = append(t.calls[id], c)
	return c
}

// Tool is the body of every tool: it returns when the trace ends call id,
// with its output, ErrDenied once the user denied its permission, or
// context.Canceled once the user cancelled. When the trace asks for
// permission, it shows the request and waits for the answer here, inside
// the tool, as Crush's permission service does; with Config.PauseToAsk it
// returns Outcome{Asked: true} instead, and the library pauses the run to
// ask (see Answer). A call granted that way enters Tool again, and goes on
// where it stopped.
func (t *Turn) Tool(ctx context.Context, id string) (out Outcome) {
	e := t.e
	e.mu.Lock()
	defer e.mu.Unlock()
	c := t.enter(id)
	defer func() {
		c.parked = false
		if !c.paused {
			c.returned, c.failed = true, out.Err != nil
		}
		e.poke()
	}()
	if t.cancelled && len(c.todo) == 0 {
		return Outcome{Err: context.Canceled}
	}
	for {
		o := e.take(c)
		switch {
		case o.ask && e.cfg.PauseToAsk:
			c.paused = true
			return Outcome{Asked: true}
		case o.ask:
			t.UI.status(id, statusPending)
		case o.grant:
			t.UI.status(id, statusRunning)
		case o.deny:
			return Outcome{Err: ErrDenied}
		case o.end != nil:
			return *o.end
		}
	}
}

// Answer is the user's answer to the permission call id asked by pausing
// the run (Config.PauseToAsk: its Tool returned Outcome{Asked: true}).
// The adapter calls it once the library paused, the request shown, and
// it returns when the trace answers: nil for a grant (the library then
// enters the call's tool again), ErrDenied for a denial, context.Canceled
// when the user cancelled instead; the call is over in those two cases.
func (t *Turn) Answer(ctx context.Context, id string) error {
	e := t.e
	e.mu.Lock()
	defer e.mu.Unlock()
	c := t.asking(id)
	if c == nil {
		return fmt.Errorf("executor: Answer: no call %q asked for permission", id)
	}
	defer func() { c.parked = false; e.poke() }()
	for {
		if done, err := c.answer(e.take(c)); done {
			return err
		}
	}
}

// answer applies an order to c, paused to ask: done when it answers the
// request, with Answer's error. The caller holds the lock.
func (c *call) answer(o order) (done bool, err error) {
	switch {
	case o.grant:
		c.granted = true
		return true, nil
	case o.deny:
		c.paused, c.returned, c.failed = false, true, true
		return true, ErrDenied
	case o.end != nil && errors.Is(o.end.Err, context.Canceled):
		c.paused, c.returned, c.failed = false, true, true
		return true, context.Canceled
	case o.end != nil:
		// A result with no answer (outside the contract): the call goes
		// on as if granted, and its tool gets the result.
		c.todo = append([]order{o}, c.todo...)
		c.granted = true
		return true, nil
	}
	return false, nil
}

// asking returns the call of id paused to ask and not answered yet, or nil.
func (t *Turn) asking(id string) *call {
	for _, c := range t.calls[id] {
		if c.paused && !c.granted {
			return c
		}
	}
	return nil
}

// take parks c until the trace gave it an order, and takes the first.
// e.mu is held, and released while c is parked.
func (e *Engine) take(c *call) order {
	for len(c.todo) == 0 {
		c.parked = true
		e.poke()
		e.mu.Unlock()
		<-c.wake
		e.mu.Lock()
	}
	c.parked = false
	o := c.todo[0]
	c.todo = c.todo[1:]
	return o
}

// enter finds the call of id granted after a pause, else the oldest call
// of id whose tool has not run yet; a call the model never made gets one.
func (t *Turn) enter(id string) *call {
	t.entries++
	signal(t.entered)
	for _, c := range t.calls[id] {
		if c.paused && c.granted {
			c.paused, c.granted = false, false
			return c
		}
	}
	for _, c := range t.calls[id] {
		if !c.entered {
			c.entered = true
			return c
		}
	}
	c := t.issue(id)
	c.entered = true
	return c
}

// RunTasks runs tasks, the bodies of one answer's calls in call order, each
// on a goroutine of its own, and returns once every one returned: a task
// runner for a library that lets its caller schedule the calls (ADK for
// Go: platform.WithTaskRunner(ctx, turn.RunTasks)). It starts each task
// only once the one before entered its tool (Tool) or returned, so the
// tools are entered in call order whatever the schedule: with one id on
// two calls of an answer, the first call is the first to enter. Without
// it, the kit tells the calls of an answer apart by their ids only.
func (t *Turn) RunTasks(ctx context.Context, tasks []func(context.Context)) {
	e := t.e
	var wg sync.WaitGroup
	for _, task := range tasks {
		e.mu.Lock()
		n := t.entries
		e.mu.Unlock()
		done := make(chan struct{})
		wg.Add(1)
		e.spawn(func() {
			defer wg.Done()
			defer close(done)
			task(ctx)
		})
		for {
			e.mu.Lock()
			in := t.entries > n
			e.mu.Unlock()
			if in {
				break
			}
			select {
			case <-t.entered:
				continue
			case <-done:
			}
			break
		}
	}
	wg.Wait()
}

// Reported tells the kit the library reported call id's result (its
// result callback or event came). The adapter calls it there, last, once
// its UI recorded whatever it records of the result (or nothing): the kit
// takes the timeline only once every result the library reported is in.
func (t *Turn) Reported(id string) {
	e := t.e
	e.mu.Lock()
	defer e.mu.Unlock()
	var first *call
	for _, c := range t.calls[id] {
		if c.reported || c.paused || c.returned && c.failed && e.cfg.ReportsOnlySuccess {
			continue // a call paused to ask has no result yet, whatever the library reported; one that failed under ReportsOnlySuccess is done unreported
		}
		if c.returned {
			first = c
			break
		}
		if first == nil {
			first = c
		}
	}
	if first != nil {
		first.reported = true
		e.poke()
	}
}

// send gives call id its next order: the oldest call of id not yet ended.
func (t *Turn) send(id string, o order) {
	for _, c := range t.calls[id] {
		if !c.returned && !c.ended() {
			c.give(o)
			return
		}
	}
}

// give hands the call an order and wakes its tool if parked: busy from
// now on, until it parks again. The caller holds the lock.
func (c *call) give(o order) {
	c.todo = append(c.todo, o)
	c.parked = false
	signal(c.wake)
}

// give adds a part to the answer; a waiting stream is busy from now on,
// until it waits again. The caller holds the lock.
func (t *Turn) give(p Part) {
	t.parts = append(t.parts, p)
	t.waiting = false
	signal(t.wake)
}

// stop cancels the run: its context, the parts not yet streamed, and the
// stream's wait. The caller holds the lock.
func (t *Turn) stop() {
	t.cancelled, t.parts, t.waiting = true, nil, false
	t.cancel()
	signal(t.wake)
}

// ended reports whether an order already ends the call.
func (c *call) ended() bool {
	for _, o := range c.todo {
		if o.deny || o.end != nil {
			return true
		}
	}
	return false
}

// finished reports whether the library is done with c: its result was
// reported, or its tool returned (AtStepEnd; or ReportsOnlySuccess, with
// an error).
func (t *Turn) finished(c *call) bool {
	return c.reported || c.returned && (t.e.cfg.AtStepEnd || c.failed && t.e.cfg.ReportsOnlySuccess)
}

// settled reports whether the library has done all it can until toolsim
// acts again: its run is over; or no tool is busy and either the model
// waits for its next part, or the last answer's calls that are not done
// are parked in their tools, as many as Config.Parallel lets run.
func (t *Turn) settled() bool {
	if t.done {
		return true
	}
	for _, cs := range t.calls {
		for _, c := range cs {
			if c.entered && !c.parked && !t.finished(c) && !t.resting(c) {
				return false
			}
		}
	}
	if t.streaming {
		return t.waiting
	}
	if !t.asked {
		return false
	}
	open, parked := 0, 0
	for _, c := range t.step {
		if !t.finished(c) {
			open++
			if c.parked || t.resting(c) {
				parked++
			}
		}
	}
	want := open
	if p := t.e.cfg.Parallel; p > 0 && want > p {
		want = p
	}
	return open > 0 && parked >= want
}

// resting reports whether c, paused to ask its permission and not in
// Answer, waits on toolsim (Config.PauseToAsk): the library pauses the
// run only once every other call of the step ended, and one has not; or
// the adapter waits for the answer to another request, and resumes the
// run (the granted calls' tools) only once it has them all. A granted
// call rests only while another request of the step waits for its
// answer: once none does, the run resumes and the call's tool is about to
// run again, so the kit waits for it (one that has not re-entered yet is
// busy, not parked).
func (t *Turn) resting(c *call) bool {
	if !c.paused || c.awaited {
		return false // not paused, or the adapter takes its answer as soon as it comes (Answers)
	}
	for _, d := range t.step {
		if d == c || t.finished(d) {
			continue
		}
		if c.granted && d.paused && !d.granted || !c.granted && (d.parked || !d.paused) {
			return true
		}
	}
	return false
}

// describe says what the kit is waiting for, for a stuck library.
func (t *Turn) describe() string {
	var b strings.Builder
	switch {
	case t.streaming:
		b.WriteString("the model stream is being read")
	case !t.asked:
		b.WriteString("the library never asked the model")
	default:
		b.WriteString("the library neither asked the model again nor returned")
	}
	for _, c := range t.step {
		switch {
		case t.finished(c):
		case c.returned:
			fmt.Fprintf(&b, "; call %q returned from its tool but its result was never reported", c.id)
		case c.paused && c.granted:
			fmt.Fprintf(&b, "; call %q was granted but its tool never ran again", c.id)
		case c.paused && c.parked:
			fmt.Fprintf(&b, "; call %q waits for the user's answer", c.id)
		case c.paused:
			fmt.Fprintf(&b, "; call %q asked for permission but the adapter never waited for the answer (Turn.Answer)", c.id)
		case !c.entered:
			fmt.Fprintf(&b, "; call %q never started its tool", c.id)
		case !c.parked:
			fmt.Fprintf(&b, "; call %q is busy in its tool", c.id)
		}
	}
	return b.String()
}
