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
	if id := ev.ID; id != "" && ev.Kind != event.KindToolStart && j.startedBefore(id, i) > 1 {
		// Several calls share the id: which one an event is for is a guess,
		// so it is judged only under a contract that rules reuse out.
		j.either = append(j.either, UniqueIDs, FreshIDs)
	}
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

// startedBefore counts the starts of id before index i.
func (j *judge) startedBefore(id string, i int) int {
	n := 0
	for _, s := range j.starts[id] {
		if s < i {
			n++
		}
	}
	return n
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
		if len(kept) < len(c.live) && len(kept) == 0 {
			c.ended = endCut
		}
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
	if !child {
		switch {
		case spread:
			note(ResponseFirst)
		case !sameBatch && j.liveTop():
			note(StepsWait)
		}
		j.batch, j.batchID = true, ev.Batch
	}
	c := j.calls[ev.ID]
	if c == nil {
		c = &call{}
		j.calls[ev.ID] = c
	}
	c.top = !child
	if c.early > 0 { // its result came first: it ends as it starts
		c.early--
		c.ended = endResult
		return broke
	}
	c.live = append(c.live, approval{asks: j.asksBetween(ev.ID, i), turn: j.turn})
	return broke
}

// stray judges an event for an id with no live call: one whose call
// ended (a duplicate or a late event, unless it is early for the id's next
// call: then either reading must be ruled out), one that starts later, or
// an unknown id.
func (j *judge) stray(i int, c *call) Guarantee {
	ev := &j.evs[i]
	later := j.startsAfter(ev.ID, i)
	switch {
	case ev.ID == "":
		return KnownIDs
	case c != nil && c.ended != endNone:
		if later {
			j.either = append(j.either, CallsFirst)
		}
		if c.ended == endResult && ev.Kind != event.KindPermission {
			return OneResult
		}
		return NothingLate
	case later:
		if ev.Kind == event.KindToolDone {
			if c == nil {
				c = &call{}
				j.calls[ev.ID] = c
			}
			c.early++
		}
		return CallsFirst
	}
	return KnownIDs
}

// report judges progress or a result.
func (j *judge) report(i int) Guarantee {
	ev := &j.evs[i]
	c := j.calls[ev.ID]
	if ev.ID == "" || c == nil || len(c.live) == 0 {
		return j.stray(i, c)
	}
	k := c.ready()
	if k < 0 {
		if c.results > 0 { // or a second result for an earlier call of the id
			j.either = append(j.either, OneResult)
		}
		if ev.Kind == event.KindToolDone { // it ends the call all the same
			c.end(0, endResult)
			c.results++
		}
		return ApprovalFirst
	}
	if ev.Kind == event.KindToolDone {
		c.end(k, endResult)
		c.results++
	}
	return ""
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
		c.live[k] = approval{pending: true, turn: c.live[k].turn}
		return ""
	}
	k := c.newestPending()
	if k < 0 {
		j.either = j.either[:0] // no call of the id awaits an answer
		return AnswersAsked
	}
	if ev.State == event.PermissionDenied {
		c.end(k, endCut)
	} else {
		c.live[k].pending = false
	}
	return ""
}
