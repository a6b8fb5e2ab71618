package harness

import (
	"errors"
	"sync"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/timeline"
)

// ExternalEngine drives engines in other processes over the toolsim-engine/1
// protocol. Its New method makes engines for Check, Campaign or Fuzz, just
// as an in-process constructor does; processes are pooled and reused across
// scenarios with reset, and one that crashes, hangs or misbehaves is killed
// and replaced by a fresh one on the next scenario.
type ExternalEngine struct {
	argv []string
	opts engineproto.Options
	mu   sync.Mutex
	idle []*engineproto.Client
	info *engineproto.Info
}

// External returns the engine run by cmd with args. Call Start to check
// that it starts and speaks the protocol, and Close when done.
func External(cmd string, args ...string) *ExternalEngine {
	return &ExternalEngine{argv: append([]string{cmd}, args...), opts: engineproto.Options{MetaTools: model.MetaTools(nil)}}
}

// WithOptions sets the protocol options (per-message timeout, width, meta
// tools) and returns the engine.
func (x *ExternalEngine) WithOptions(o engineproto.Options) *ExternalEngine {
	x.opts = o
	return x
}

// Start starts one process and performs the handshake, so that setup
// problems (no such command, another protocol) surface before a campaign.
func (x *ExternalEngine) Start() (engineproto.Info, error) {
	c, err := x.acquire()
	if err != nil {
		return engineproto.Info{}, err
	}
	x.release(c)
	return *x.info, nil
}

// Fields returns the optional timeline fields the engine declared (after
// Start), for Options.Fields.
func (x *ExternalEngine) Fields() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.info == nil {
		return nil
	}
	return x.info.Fields
}

// New returns an engine bound to a pooled process, reset for a new
// scenario. It satisfies Engine; the harness closes it when done, which
// returns the process to the pool.
func (x *ExternalEngine) New() Engine { return &externalHandle{x: x} }

// Close stops every idle process.
func (x *ExternalEngine) Close() {
	x.mu.Lock()
	idle := x.idle
	x.idle = nil
	x.mu.Unlock()
	for _, c := range idle {
		c.Close()
	}
}

func (x *ExternalEngine) acquire() (*engineproto.Client, error) {
	x.mu.Lock()
	if n := len(x.idle); n > 0 {
		c := x.idle[n-1]
		x.idle = x.idle[:n-1]
		x.mu.Unlock()
		return c, nil
	}
	x.mu.Unlock()
	c, err := engineproto.Start(x.argv, x.opts)
	if err != nil {
		return nil, err
	}
	x.mu.Lock()
	if x.info == nil {
		x.info = &c.Info
	}
	x.mu.Unlock()
	return c, nil
}

func (x *ExternalEngine) release(c *engineproto.Client) {
	if c.Dead() {
		return
	}
	x.mu.Lock()
	x.idle = append(x.idle, c)
	x.mu.Unlock()
}

// externalHandle is one scenario's view of a pooled engine process.
type externalHandle struct {
	x   *ExternalEngine
	c   *engineproto.Client
	tl  *timeline.Timeline
	err error
}

// ready makes sure the handle holds a reset process.
func (h *externalHandle) ready() bool {
	if h.err != nil {
		return false
	}
	if h.c == nil {
		c, err := h.x.acquire()
		if err == nil {
			if err = c.Reset(); err != nil {
				c.Kill() // a process that could not start a new scenario is not reused, nor left running
			}
		}
		if err != nil {
			h.err = err
			return false
		}
		h.c = c
	}
	return true
}

// Apply sends one event.
func (h *externalHandle) Apply(ev *event.Event) {
	if h.ready() {
		h.tl, h.err = h.c.Event(ev)
	}
}

// CopiesEvents reports true: an event is sent (or, in batch mode, read
// into the batch) before Apply returns.
func (h *externalHandle) CopiesEvents() bool { return true }

// Finish applies the end-of-stream rule.
func (h *externalHandle) Finish() {
	if h.ready() {
		h.tl, h.err = h.c.Finish()
	}
}

// Timeline returns the last timeline the engine sent (empty before any, or
// after a failure: see Err).
func (h *externalHandle) Timeline() *timeline.Timeline {
	if h.tl == nil {
		return &timeline.Timeline{}
	}
	return h.tl
}

// Err reports the engine failure that stopped this scenario, if any.
func (h *externalHandle) Err() error { return h.err }

// Replay sends a whole trace in batch mode when the engine supports it.
func (h *externalHandle) Replay(evs []event.Event, finish bool) ([]*timeline.Timeline, error) {
	if !h.ready() {
		return nil, h.err
	}
	if !h.c.Info.Has(engineproto.CapBatch) {
		return nil, errNoBatch
	}
	tls, err := h.c.Batch(evs, finish)
	h.err = err
	return tls, err
}

// ReplayFinal sends a whole trace in batch mode, end-of-stream rule
// included, and returns only the last timeline (errNoBatch without the
// batch capability): see engineproto.Client.BatchFinal.
func (h *externalHandle) ReplayFinal(evs []event.Event) (*timeline.Timeline, error) {
	if !h.ready() {
		return nil, h.err
	}
	if !h.c.Info.Has(engineproto.CapBatch) {
		return nil, errNoBatch
	}
	tl, err := h.c.BatchFinal(evs)
	if err != nil {
		h.err = err
		return nil, err
	}
	h.tl = tl
	return tl, nil
}

// canSnapshot reports whether the engine's timelines can be stale and it
// can say so: it answers with deltas and sends its whole timeline on
// request (the delta and snapshot capabilities).
func (h *externalHandle) canSnapshot() bool {
	return h.ready() && h.c.Info.Has(engineproto.CapDelta) && h.c.Info.Has(engineproto.CapSnapshot)
}

// snapshot asks for the engine's whole current timeline.
func (h *externalHandle) snapshot() (*timeline.Timeline, error) {
	if !h.ready() {
		return nil, h.err
	}
	tl, err := h.c.Snapshot()
	if err != nil {
		h.err = err
		return nil, err
	}
	return tl, nil
}

// canCrash reports whether the engine can be killed and resumed (the
// crash capability), for the crash oracle.
func (h *externalHandle) canCrash() bool { return h.ready() && h.c.Info.Has(engineproto.CapCrash) }

// crash kills and resumes the engine and returns its resumed timeline.
func (h *externalHandle) crash() (*timeline.Timeline, error) {
	tl, err := h.c.Crash()
	if err != nil {
		h.err = err
	}
	return tl, err
}

// Reconstruct asks the engine to rebuild a persisted log itself (the
// reconstruct capability), for the reload oracle.
func (h *externalHandle) Reconstruct(log []byte) (*timeline.Timeline, error) {
	if !h.ready() {
		return nil, h.err
	}
	if !h.c.Info.Has(engineproto.CapReconstruct) {
		return nil, errors.New("the engine has no reconstruct capability")
	}
	tl, err := h.c.Reconstruct(log)
	if err != nil {
		h.err = err
	}
	return tl, err
}

// Close returns the process to the pool (a failed one was already killed).
func (h *externalHandle) Close() error {
	if h.c != nil {
		h.x.release(h.c)
		h.c = nil
	}
	return nil
}

var errNoBatch = errors.New("the engine has no batch capability")
