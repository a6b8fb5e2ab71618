package chatui

import "slices"

// Start shows a new call. A call without an id cannot be followed and is
// not shown; a call whose parent is known goes under it.
func (t *Transcript) Start(id, name, parent string) {
	if id == "" {
		return
	}
	t.open = nil
	c := &Call{ID: id, Name: name, State: Running, Began: t.clock}
	row := &Row{Kind: RowCall, Call: c}
	if p := t.parent(parent); p != nil {
		p.Subcalls = append(p.Subcalls, row)
	} else {
		t.add(row)
	}
	b := t.calls[id]
	if b == nil {
		b = &byID{}
		t.calls[id] = b
	}
	b.live = append(b.live, c)
	b.last = c
	t.live = append(t.live, c)
	if early := t.early[id]; len(early) > 0 {
		t.early[id] = early[1:]
		t.finish(c, early[0])
	}
}

// parent is the call a sub-call runs under: the oldest live one with the
// id, else the latest.
func (t *Transcript) parent(id string) *Call {
	b := t.calls[id]
	switch {
	case id == "" || b == nil:
		return nil
	case len(b.live) > 0:
		return b.live[0]
	}
	return b.last
}

// liveCall is the oldest live call with the id, or nil.
func (t *Transcript) liveCall(id string) *Call {
	if b := t.calls[id]; b != nil && len(b.live) > 0 {
		return b.live[0]
	}
	return nil
}

// Finished ends the oldest live call with the id. A result for an id not
// seen yet waits for its call (until the turn ends); one for an id with
// no live call is late and ignored.
func (t *Transcript) Finished(id string, o Outcome) {
	switch b := t.calls[id]; {
	case id == "":
	case b == nil:
		t.early[id] = append(t.early[id], o)
	case len(b.live) > 0:
		t.finish(b.live[0], o)
	}
}

func (t *Transcript) finish(c *Call, o Outcome) {
	c.answered = true
	state := Succeeded
	if !o.OK {
		state, c.Problem = Failed, o.Problem
	}
	t.end(c, state, t.clock)
	if o.Took != nil {
		c.Took = *o.Took
	}
}

// Permission moves a live call: asked waits for the user, granted runs
// again, denied ends it.
func (t *Transcript) Permission(id, state string) {
	c := t.liveCall(id)
	if c == nil {
		return
	}
	switch state {
	case "asked":
		c.State = Asking
	case "granted":
		c.State = Running
	case "denied":
		t.end(c, Refused, t.clock)
	}
}

func (t *Transcript) end(c *Call, s State, at int64) {
	c.State, c.Ended, c.Took = s, at, max(at-c.Began, 0)
	b := t.calls[c.ID]
	if i := slices.Index(b.live, c); i >= 0 {
		b.live = slices.Delete(b.live, i, i+1)
	}
}
