package engineproto_test

import (
	"sync"
	"time"

	"github.com/toolsim/toolsim/engineproto"
)

// fakeClock is a Clock whose timers fire only when the test calls fire:
// no test waits on real time, and a timeout cannot fire early on a busy
// machine.
type fakeClock struct {
	mu      sync.Mutex
	armed   sync.Cond
	pending []*fakeTimer
	arms    int // how many times a timer was armed (AfterFunc or Reset)
}

func newFakeClock() *fakeClock {
	c := &fakeClock{}
	c.armed.L = &c.mu
	return c
}

type fakeTimer struct {
	c    *fakeClock
	d    time.Duration
	f    func()
	done bool
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) engineproto.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, d: d, f: f}
	c.pending = append(c.pending, t)
	c.arms++
	c.armed.Broadcast()
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	if t.done {
		return false
	}
	t.done = true
	for i, p := range t.c.pending {
		if p == t {
			t.c.pending = append(t.c.pending[:i], t.c.pending[i+1:]...)
			break
		}
	}
	return true
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	if t.done {
		t.c.pending = append(t.c.pending, t)
	}
	t.c.arms++
	t.c.armed.Broadcast()
	t.d, t.done = d, false
	return was
}

// fire waits until a timer is pending, then runs it as if its time had
// come, and returns its duration.
func (c *fakeClock) fire() time.Duration { return c.fireArmed(1) }

// armCount is how many times timers were armed so far.
func (c *fakeClock) armCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.arms
}

// fireArmed is fire once timers were armed n times in all: the n-th wait
// for a reply is the one whose time comes.
func (c *fakeClock) fireArmed(n int) time.Duration {
	c.mu.Lock()
	for len(c.pending) == 0 || c.arms < n {
		c.armed.Wait()
	}
	t := c.pending[0]
	c.pending = c.pending[1:]
	t.done = true
	c.mu.Unlock()
	t.f()
	return t.d
}
