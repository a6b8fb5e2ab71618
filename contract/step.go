package contract

import (
	"slices"

	"github.com/toolsim/toolsim/event"
)

// step judges the event at index i and applies it to the judge's state.
// It returns the guarantee the event breaks ("" for none); j.later holds
// any further ones.
func (j *judge) step(i int) Guarantee {
	ev := &j.evs[i]
	j.later, j.either = j.later[:0], j.either[:0]
	wasBatch := j.batch
	if ev.Kind != event.KindToolStart || !j.child(ev) {
		j.batch = false // a sub-agent call inside a batch keeps it open
	}
	switch ev.Kind {
	case event.KindTurnStart:
		j.turn++
	case event.KindText, event.KindThinking:
		if j.liveTop() {
			return ResponseFirst
		}
	case event.KindToolStart:
		return j.start(i, wasBatch)
	case event.KindToolProgress, event.KindToolDone:
		return j.report(i)
	case event.KindPermission:
		return j.permission(i)
	case event.KindCancel:
		j.cut(false)
	case event.KindTurnEnd:
		broke := j.live() > 0
		j.cut(true)
		if broke {
			return ResultsBeforeEnd
		}
	}
	return ""
}

// reuse judges a start's id: none, one its batch already holds, or one an
// earlier batch used. A batch with a batch id holds every start with that
// id, wherever it comes; starts without one form a batch while they come
// one after another (a sub-agent call stays in its parent's).
func (j *judge) reuse(ev *event.Event, child, inBatch bool) Guarantee {
	ids := j.run
	if ev.Batch != "" {
		if ids = j.byBatch[ev.Batch]; ids == nil {
			ids = map[string]bool{}
			j.byBatch[ev.Batch] = ids
		}
	} else if !child && !(inBatch && j.batchID == "") {
		clear(j.run)
	}
	defer func() { ids[ev.ID], j.seen[ev.ID] = true, true }()
	switch {
	case ev.ID == "":
		return KnownIDs
	case ids[ev.ID]:
		return UniqueIDs
	case j.seen[ev.ID]:
		return FreshIDs
	}
	return ""
}

// child reports whether ev starts a sub-agent call of a call the judge
// knows; a call whose parent is unknown counts as a top-level one.
func (j *judge) child(ev *event.Event) bool {
	return ev.Parent != "" && j.calls[ev.Parent] != nil
}

// cut ends every live call (a cancel, or a turn's end). At a turn's end a
// call awaiting approval stays open.
func (j *judge) cut(turnEnd bool) {
	for _, c := range j.calls {
		kept := c.live[:0]
		for _, a := range c.live {
			if turnEnd && a.pending {
				kept = append(kept, a)
			}
		}
		c.byCut += len(c.live) - len(kept)
		c.live = kept
	}
}

// start judges a tool_start; inBatch says the previous event was a
// top-level start.
func (j *judge) start(i int, inBatch bool) Guarantee {
	ev := &j.evs[i]
	var broke Guarantee
	note := func(g Guarantee) {
		if broke == "" {
			broke = g
		} else {
			j.later = append(j.later, g)
		}
	}
	child := j.child(ev)
	// A start with the last start's batch id after a report between
	// them is the same batch, spread: the tools ran before the response
	// ended.
	spread := !child && !inBatch && ev.Batch != "" && ev.Batch == j.batchID
	sameBatch := child || spread || inBatch && ev.Batch == j.batchID
	if g := j.reuse(ev, child, inBatch); g != "" {
		note(g)
	}
	if ev.Parent != "" && j.calls[ev.Parent] == nil {
		if j.startsAfter(ev.Parent, i) {
			note(CallsFirst)
		} else {
			note(KnownIDs)
		}
	}
	batch := 0
	if !child {
		switch {
		case spread:
			note(ResponseFirst)
		case !sameBatch && j.liveTop():
			note(StepsWait)
		}
		if !sameBatch {
			j.batchNo++
		}
		j.batch, j.batchID, batch = true, ev.Batch, j.batchNo
	}
	c := j.calls[ev.ID]
	if c == nil {
		c = &call{}
		j.calls[ev.ID] = c
	}
	c.top = !child
	if c.early > 0 { // its result came first: it ends as it starts
		c.early--
		c.byResult++
		return broke
	}
	c.live = append(c.live, approval{asks: j.asksBetween(ev.ID, i), turn: j.turn, batch: batch})
	return broke
}

// report judges progress or a result. An id several calls share may
// mean any of them: the event is inside when one reading is (a live call
// that may report takes it), and otherwise breaks every reading's
// guarantee, the first returned and the rest in j.either: a call awaiting
// approval (approval-first), one that ended by a result (one-result) or
// was cut off (nothing-late), one that starts later (calls-first), or no
// call at all (known-ids).
func (j *judge) report(i int) Guarantee {
	ev := &j.evs[i]
	done := ev.Kind == event.KindToolDone
	if ev.ID == "" {
		return KnownIDs
	}
	c := j.calls[ev.ID]
	if c != nil {
		if k := c.ready(); k >= 0 {
			var broke Guarantee
			if a := c.live[k]; a.asked && a.batch > 0 && j.busyBatch(a.batch, c, k) {
				broke = ApprovedNext
			}
			if done {
				c.end(k, true)
			}
			return broke
		}
	}
	later := j.startsAfter(ev.ID, i)
	var reads List
	if c != nil {
		if len(c.live) > 0 {
			reads = append(reads, ApprovalFirst)
		}
		if c.byResult > 0 {
			reads = append(reads, OneResult)
		}
		if c.byCut > 0 {
			reads = append(reads, NothingLate)
		}
	}
	if later {
		reads = append(reads, CallsFirst)
	}
	if len(reads) == 0 {
		return KnownIDs
	}
	// The reading that keeps most open: a call that ended takes it (a
	// duplicate or a late one), else a call awaiting approval, else the
	// next start.
	switch {
	case !done || c != nil && c.byResult+c.byCut > 0:
	case c != nil && len(c.live) > 0:
		c.end(0, true)
	case later:
		if c == nil {
			c = &call{}
			j.calls[ev.ID] = c
		}
		c.early++
	}
	j.either = append(j.either, reads[1:]...)
	return reads[0]
}

// stray judges a permission for an id with no live call: for a call that
// ended (late), one that starts later, or none.
func (j *judge) stray(i int, c *call) Guarantee {
	ev := &j.evs[i]
	later := j.startsAfter(ev.ID, i)
	switch {
	case ev.ID == "":
		return KnownIDs
	case c != nil && c.byResult+c.byCut > 0:
		if later {
			j.either = append(j.either, CallsFirst)
		}
		return NothingLate
	case later:
		return CallsFirst
	}
	return KnownIDs
}

// permission judges an approval request or answer.
func (j *judge) permission(i int) Guarantee {
	ev := &j.evs[i]
	c := j.calls[ev.ID]
	if ev.ID == "" || c == nil || len(c.live) == 0 {
		return j.stray(i, c)
	}
	if ev.State == event.PermissionAsked {
		k := slices.IndexFunc(c.live, func(a approval) bool { return a.asks })
		if k < 0 {
			k = c.find(false)
		}
		if k < 0 {
			j.either = j.either[:0] // whichever call of the id it is for
			return AnswersAsked     // asked twice with no answer between
		}
		c.live[k] = approval{pending: true, asked: true, turn: c.live[k].turn, batch: c.live[k].batch}
		return ""
	}
	k := c.newestPending()
	if k < 0 {
		j.either = j.either[:0] // no call of the id awaits an answer
		return AnswersAsked
	}
	if ev.State == event.PermissionDenied {
		c.end(k, false)
	} else {
		c.live[k].pending = false
	}
	return ""
}
