package tui

import (
	"sync"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
)

// DefaultCheckpointEvery is the smallest spacing of checkpoints, in events.
const DefaultCheckpointEvery = 4096

// DefaultCheckpointBudget bounds the size of all checkpoints together,
// counted in events: a checkpoint after n events holds at most about n
// events' worth of engine, so the checkpoints of a trace sum their
// positions. A checkpoint shares the timeline's items and tools with the
// engine it was cloned from (see [engine.Engine.Clone]) and holds its own
// pairing index and the items changed after it, so 4M events' worth is
// far less than 4M events of timeline.
const DefaultCheckpointBudget = 1 << 22

// checkpointSpacing returns the spacing of the checkpoints of an n-event
// trace: the smallest multiple of every whose checkpoints (at s, 2s, ...,
// below n) fit the budget.
func checkpointSpacing(n, every, budget int) int {
	for s := every; ; s += every {
		m := (n - 1) / s
		if m <= 0 || s*m*(m+1)/2 <= budget {
			return s
		}
	}
}

// checkpoints holds engines at fixed positions of a trace, built by
// [checkpoints.build] on a goroutine of their own from a trace that no
// longer changes. A seek starts from a clone of one: cloning shares the
// timeline, so it costs the pairing index, not a replay.
type checkpoints struct {
	evs       []event.Event // read only
	positions []int         // where checkpoints go, ascending

	mu    sync.Mutex
	ready *sync.Cond // broadcast when a checkpoint is published or on close
	at    map[int]*engine.Engine
	stop  chan struct{}
	done  chan struct{}
	run   bool
}

func newCheckpoints(evs []event.Event, every, budget int) *checkpoints {
	c := &checkpoints{evs: evs, at: map[int]*engine.Engine{}, stop: make(chan struct{})}
	c.ready = sync.NewCond(&c.mu)
	if len(evs) > every {
		s := checkpointSpacing(len(evs), every, budget)
		for p := s; p < len(evs); p += s {
			c.positions = append(c.positions, p)
		}
	}
	return c
}

// start builds the checkpoints on a goroutine.
func (c *checkpoints) start() {
	if len(c.positions) == 0 || c.run {
		return
	}
	c.run = true
	c.done = make(chan struct{})
	go func() {
		defer close(c.done)
		c.build(c.positions)
	}()
}

// build replays the trace once through a fresh engine, publishing a clone
// at each position (the engine itself at the last). It gives up on close.
func (c *checkpoints) build(positions []int) {
	if len(positions) == 0 {
		return
	}
	e := engine.New(engine.Options{})
	next := 0
	for i := range c.evs[:positions[len(positions)-1]] {
		if i%1024 == 0 && c.stopped() {
			return
		}
		e.Apply(&c.evs[i])
		if i+1 == positions[next] {
			if next == len(positions)-1 {
				c.publish(i+1, e)
				return
			}
			c.publish(i+1, e.Clone())
			next++
		}
	}
}

func (c *checkpoints) stopped() bool {
	select {
	case <-c.stop:
		return true
	default:
		return false
	}
}

func (c *checkpoints) publish(pos int, e *engine.Engine) {
	c.mu.Lock()
	c.at[pos] = e
	c.mu.Unlock()
	c.ready.Broadcast()
}

// take returns a clone of the checkpoint with the largest position in
// (after, upTo], or nil.
func (c *checkpoints) take(after, upTo int) (int, *engine.Engine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	best := -1
	for p := range c.at {
		if p > after && p <= upTo && p > best {
			best = p
		}
	}
	if best < 0 {
		return 0, nil
	}
	return best, c.at[best].Clone()
}

// wait blocks until every checkpoint is in place (or close).
func (c *checkpoints) wait() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.at) < len(c.positions) && !c.stopped() {
		c.ready.Wait()
	}
}

// close stops the builder and waits for it.
func (c *checkpoints) close() {
	c.mu.Lock()
	select {
	case <-c.stop:
	default:
		close(c.stop)
	}
	c.mu.Unlock()
	c.ready.Broadcast()
	if c.run {
		<-c.done
	}
}

// missing returns the positions without a checkpoint, ascending.
func (c *checkpoints) missing() []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []int
	for _, p := range c.positions {
		if c.at[p] == nil {
			out = append(out, p)
		}
	}
	return out
}
