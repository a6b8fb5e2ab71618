package engineproto

import (
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// BatchFinal applies events and then the end-of-stream rule, as Batch with
// finish does, and returns only the last timeline. Every reply is read and
// checked as Batch checks it (its index, its JSON, a delta's indexes and
// length), but the items of deltas are kept as JSON and only the last
// version of each is decoded: a replay that needs the final timeline (the
// harness's second replay, its replay with results reordered) does not pay
// for decoding every intermediate one. It needs the batch capability.
func (c *Client) BatchFinal(evs []event.Event) (*timeline.Timeline, error) {
	f := &final{c: c, base: c.tls.prev, arena: c.finals.arena[:0], spare: c.finals.spare}
	defer func() { c.finals.arena, c.finals.spare = f.arena[:0], f.spare }()
	err := c.batches("batch", evs, true, f.message)
	if err != nil {
		return nil, err
	}
	tl, derr := f.decode()
	if derr != nil {
		return nil, derr
	}
	return tl, nil
}

// final is the state of a BatchFinal: the last fully decoded timeline
// (base) and, over it, what later deltas changed, as JSON.
type final struct {
	c     *Client
	base  *timeline.Timeline
	n     int           // items in the current timeline
	raw   map[int]rawAt // items changed since base, by index
	arena []byte        // copies of their JSON (replies reuse their buffers)
	spare map[int]rawAt // an empty map for raw, kept across calls
	diags []timeline.Diagnostic
	now   int64
	dirty bool // deltas were applied over base
}

// rawAt is an item's JSON and the reply it came in, for errors.
type rawAt struct {
	json []byte
	at   replyAt
}

// message sends one batch message and reads its replies.
func (f *final) message(m *Message) error {
	c := f.c
	if err := c.send(m); err != nil {
		return c.died("batch", writeFailed(err))
	}
	n := len(m.Events) + 1 // the last message carries finish
	if !m.Finish {
		n--
	}
	rt := c.newReplyTimer()
	defer rt.stop()
	for i := range n {
		at := replyAt{m.ID, i, n}
		rep, err := rt.read(m.ID, "batch")
		if err != nil {
			return at.label(err)
		}
		if rep.Index != i {
			return at.label(c.broken("batch", fmt.Sprintf("a timeline for index %d, want %d", rep.Index, i)))
		}
		if err := f.reply(rep, at); err != nil {
			return err // labelled with the reply it is about
		}
	}
	return nil
}

// replyAt is reply i (0-based) of the n to batch message id, named in the
// errors about it.
type replyAt struct {
	id   int64
	i, n int
}

func (r replyAt) label(err *EngineError) *EngineError { return batchLabel(err, r.id, r.i, r.n) }

// reply takes one timeline reply: a delta is kept as JSON over the
// current state; anything else is decoded as Batch decodes it and becomes
// the new base.
func (f *final) reply(rep *Reply, at replyAt) *EngineError {
	c := f.c
	if rep.Type != TypeTimeline || rep.Delta == nil || rep.Timeline != nil || !c.Info.Has(CapDelta) {
		if err := f.settle(); err != nil {
			return err
		}
		tl, err := c.decodeTimeline(rep, "batch")
		if err != nil {
			return at.label(err)
		}
		f.base, f.dirty, f.raw = tl, false, nil
		return nil
	}
	// The reply's line passed jsonscan's check (split): its delta is
	// well-formed, and its items need not be checked again.
	d, err := c.tls.dec.DeltaRawChecked(rep.Delta)
	if err != nil {
		return at.label(c.broken("batch", fmt.Errorf("the delta does not apply: %w", err).Error()))
	}
	if !f.dirty {
		f.n, f.now, f.diags, f.dirty = len(f.base.Items), f.base.Now, f.base.Diagnostics, true
		f.raw = f.spare
		if f.raw == nil {
			f.raw = map[int]rawAt{}
		}
		f.spare = nil
	}
	if err := covers(f.n, d.Len, len(d.Items), func(k int) int { return d.Items[k].Index }); err != nil {
		return at.label(c.broken("batch", fmt.Errorf("the delta does not apply: %w", err).Error()))
	}
	for _, it := range d.Items {
		start := len(f.arena)
		f.arena = append(f.arena, it.JSON...)
		f.raw[it.Index] = rawAt{json: f.arena[start:len(f.arena):len(f.arena)], at: at}
	}
	for i := d.Len; i < f.n; i++ {
		delete(f.raw, i) // cut off by a shorter len
	}
	f.n = d.Len
	if d.HasNow {
		f.now = d.Now
	}
	f.diags = append(f.diags[:len(f.diags):len(f.diags)], d.Diagnostics...)
	return nil
}

// settle decodes the kept JSON into a timeline that becomes the base.
func (f *final) settle() *EngineError {
	if !f.dirty {
		return nil
	}
	tl := &timeline.Timeline{Items: make([]*timeline.Item, f.n), Now: f.now, Diagnostics: f.diags}
	copy(tl.Items, f.base.Items)
	tls := &f.c.tls
	tls.prev = f.base
	for i := range tl.Items {
		r, ok := f.raw[i]
		if !ok {
			continue
		}
		it, err := tls.dec.Item(r.json)
		if err != nil {
			return r.at.label(f.c.broken("batch", fmt.Errorf("the delta does not apply: [%d]: %w", i, err).Error()))
		}
		tl.Items[i] = tls.stamp(i, it)
	}
	clear(f.raw)
	f.base, f.dirty, f.raw, f.spare = tl, false, nil, f.raw
	tls.prev = tl
	return nil
}

// decode returns the last timeline, and leaves it as the one the next
// delta applies to.
func (f *final) decode() (*timeline.Timeline, *EngineError) {
	if err := f.settle(); err != nil {
		return nil, err
	}
	f.c.tls.prev = f.base
	return f.base, nil
}
