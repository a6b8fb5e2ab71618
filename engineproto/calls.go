package engineproto

import (
	"encoding/json"
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// Event applies one event and returns the engine's timeline after it. The
// timeline is read-only: it shares unchanged items with the previous one
// (see the package documentation).
func (c *Client) Event(ev *event.Event) (*timeline.Timeline, error) {
	what := fmt.Sprintf("event seq %d (%s)", ev.Seq, ev.Kind)
	rep, err := c.call(&Message{Type: TypeEvent, Event: encodeEvent(ev)}, what)
	if err != nil {
		return nil, err
	}
	tl, err := c.decodeTimeline(rep, what)
	if err != nil {
		return nil, err
	}
	return tl, nil
}

// Finish applies the end-of-stream rule.
func (c *Client) Finish() (*timeline.Timeline, error) {
	rep, err := c.call(&Message{Type: TypeFinish}, "finish")
	if err != nil {
		return nil, err
	}
	tl, err := c.decodeTimeline(rep, "finish")
	if err != nil {
		return nil, err
	}
	return tl, nil
}

// Reset starts a new scenario. An engine whose timeline is not empty
// afterwards ignored the reset: that is an error (and the process is
// killed, so the next scenario gets a fresh one).
func (c *Client) Reset() error {
	rep, err := c.call(&Message{Type: TypeReset}, "reset")
	if err != nil {
		return err
	}
	c.tls.empty() // a delta answering reset is relative to the empty timeline
	tl, err := c.decodeTimeline(rep, "reset")
	if err != nil {
		return err
	}
	if len(tl.Items) > 0 || len(tl.Diagnostics) > 0 {
		return c.broken("reset", fmt.Sprintf("it ignored reset: the timeline still holds %d items and %d diagnostics", len(tl.Items), len(tl.Diagnostics)))
	}
	return nil
}

// MaxBatch is the most bytes of events Batch puts in one message; a
// longer trace goes in several, well below the 64 MiB line limit.
const MaxBatch = 8 << 20

var maxBatch = MaxBatch // lowered by a test

// Batch applies events in order (and, with finish, the end-of-stream rule)
// and returns the timeline after each: len(evs) timelines, plus one when
// finish is set. It needs the batch capability. A trace whose events
// encode to more than MaxBatch bytes is sent as several batch messages.
func (c *Client) Batch(evs []event.Event, finish bool) ([]*timeline.Timeline, error) {
	out := make([]*timeline.Timeline, 0, len(evs)+1)
	err := c.batches("batch", evs, finish, func(m *Message) error {
		var err error
		out, err = c.batch(m, out)
		return err
	})
	return out, err
}

// batches splits evs into batch messages of at most maxBatch bytes of
// events (at least one message, the last carrying finish) and hands each
// to send, stopping at its first error.
func (c *Client) batches(what string, evs []event.Event, finish bool, send func(*Message) error) error {
	if !c.Info.Has(CapBatch) {
		return c.fail(what, "the engine did not declare the batch capability", false)
	}
	for first := true; first || len(evs) > 0; first = false {
		m := &Message{Type: TypeBatch, Events: []json.RawMessage{}}
		size := 0
		for len(m.Events) < len(evs) && (size < maxBatch || len(m.Events) == 0) {
			raw := encodeEvent(&evs[len(m.Events)])
			m.Events = append(m.Events, raw)
			size += len(raw) + 1
		}
		evs = evs[len(m.Events):]
		m.Finish = finish && len(evs) == 0
		if err := send(m); err != nil {
			return err
		}
	}
	return nil
}

// batch sends one batch message and appends the timelines it gets back.
func (c *Client) batch(m *Message, out []*timeline.Timeline) ([]*timeline.Timeline, error) {
	if err := c.send(m); err != nil {
		return out, c.died("batch", writeFailed(err))
	}
	n := len(m.Events)
	if m.Finish {
		n++
	}
	rt := c.newReplyTimer()
	defer rt.stop()
	for i := range n {
		rep, err := rt.read(m.ID, "batch")
		if err != nil {
			return out, batchLabel(err, m.ID, i, n)
		}
		if rep.Index != i {
			return out, batchLabel(c.broken("batch", fmt.Sprintf("a timeline for index %d, want %d", rep.Index, i)), m.ID, i, n)
		}
		tl, err := c.decodeTimeline(rep, "batch")
		if err != nil {
			return out, batchLabel(err, m.ID, i, n)
		}
		out = append(out, tl)
	}
	return out, nil
}

// batchLabel names the reply an error is about: reply i (0-based) of the n
// to batch message id. It is spelled only on error, not for every reply.
func batchLabel(err *EngineError, id int64, i, n int) *EngineError {
	err.Message = fmt.Sprintf("batch id=%d, timeline %d of %d", id, i+1, n)
	return err
}

// Render asks the engine for its own render of the current timeline. It
// needs the render capability.
func (c *Client) Render(width int) (string, error) {
	if !c.Info.Has(CapRender) {
		return "", c.fail("render", "the engine did not declare the render capability", false)
	}
	rep, err := c.call(&Message{Type: TypeRender, Width: width}, "render")
	if err != nil {
		return "", err
	}
	if rep.Type != TypeRendered {
		return "", c.broken("render", fmt.Sprintf("want a rendered reply, got %q", rep.Type))
	}
	return rep.Text, nil
}

// Snapshot asks the engine for its whole current timeline (the snapshot
// capability) and changes nothing: the timeline is decoded on its own,
// shares no item with those of other replies and carries no versions, and
// the next delta still applies to the last timeline Event, Batch or Finish
// returned. An engine that keeps the rules of deltas answers with that
// timeline; an item that differs is one the engine changed without
// sending it (docs/protocol.md, Snapshots).
func (c *Client) Snapshot() (*timeline.Timeline, error) {
	if !c.Info.Has(CapSnapshot) {
		return nil, c.fail("snapshot", "the engine did not declare the snapshot capability", false)
	}
	rep, err := c.call(&Message{Type: TypeSnapshot}, "snapshot")
	if err != nil {
		return nil, err
	}
	switch {
	case rep.Type != TypeTimeline:
		return nil, c.broken("snapshot", fmt.Sprintf("want a timeline reply, got %q", rep.Type))
	case rep.Delta != nil || rep.Timeline == nil:
		return nil, c.broken("snapshot", `a snapshot must be answered with a whole "timeline", not a delta`)
	}
	tl, derr := c.tls.dec.Timeline(rep.Timeline)
	if derr != nil {
		return nil, c.broken("snapshot", fmt.Sprintf("the timeline does not decode: %v", derr))
	}
	return tl, nil
}

// Reconstruct asks the engine to rebuild a timeline from a persisted log.
// It needs the reconstruct capability.
func (c *Client) Reconstruct(log []byte) (*timeline.Timeline, error) {
	if !c.Info.Has(CapReconstruct) {
		return nil, c.fail("reconstruct", "the engine did not declare the reconstruct capability", false)
	}
	rep, err := c.call(&Message{Type: TypeReconstruct, Log: string(log)}, "reconstruct")
	if err != nil {
		return nil, err
	}
	c.tls.empty() // so is one answering reconstruct
	tl, err := c.decodeTimeline(rep, "reconstruct")
	if err != nil {
		return nil, err
	}
	return tl, nil
}

// Crash asks the engine to be killed where it stands and resumed (the
// crash capability), and returns the whole timeline the resumed engine
// shows. The engine's earlier timelines no longer apply: the next delta
// is relative to this one.
func (c *Client) Crash() (*timeline.Timeline, error) {
	if !c.Info.Has(CapCrash) {
		return nil, c.fail("crash", "the engine did not declare the crash capability", false)
	}
	rep, err := c.call(&Message{Type: TypeCrash}, "crash")
	if err != nil {
		return nil, err
	}
	if rep.Type == TypeTimeline && rep.Delta != nil {
		return nil, c.broken("crash", `a crash must be answered with a whole "timeline", not a delta`)
	}
	c.tls.empty()
	tl, err := c.decodeTimeline(rep, "crash")
	if err != nil {
		return nil, err
	}
	return tl, nil
}
