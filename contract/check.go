package contract

import (
	"fmt"
	"slices"

	"github.com/toolsim/toolsim/event"
)

// Breach is the first event of a trace that breaks a guarantee.
type Breach struct {
	Seq       int64 // the event's seq; the last event's for the end of the stream
	Kind      event.Kind
	ID        string
	Guarantee Guarantee
}

// String says where and why: "seq 4, tool_done "a": calls-first (anything
// about a call before the call itself)".
func (b *Breach) String() string {
	id := ""
	if b.ID != "" || b.Kind == event.KindToolStart || b.Kind == event.KindToolDone || b.Kind == event.KindToolProgress || b.Kind == event.KindPermission {
		id = fmt.Sprintf(" %q", b.ID)
	}
	return fmt.Sprintf("seq %d, %s%s: %s (%s)", b.Seq, b.Kind, id, b.Guarantee, b.Guarantee.Describe())
}

// Check returns the first event of evs that breaks a guarantee of l, or
// nil when the whole trace is inside the contract. The end of the stream
// counts as an event after the last one ([ResultsBeforeEnd]).
func (l List) Check(evs []event.Event) *Breach {
	if len(l) == 0 {
		return nil
	}
	j := newJudge(evs)
	for i := range evs {
		if g := j.step(i); g != "" && l.Has(g) && l.HasAll(j.either) {
			return &Breach{Seq: evs[i].Seq, Kind: evs[i].Kind, ID: evs[i].ID, Guarantee: g}
		}
		for _, g := range j.later {
			if l.Has(g) {
				return &Breach{Seq: evs[i].Seq, Kind: evs[i].Kind, ID: evs[i].ID, Guarantee: g}
			}
		}
	}
	if j.live() > 0 && l.Has(ResultsBeforeEnd) {
		var seq int64
		if len(evs) > 0 {
			seq = evs[len(evs)-1].Seq
		}
		return &Breach{Seq: seq, Kind: "end of stream", Guarantee: ResultsBeforeEnd}
	}
	return nil
}

// call is what the judge knows of one id: its live calls (several when
// the id is reused), results that came before their call, and how many of
// its calls ended by a result and how many were cut off.
type call struct {
	live     []approval // the live calls, oldest first
	top      bool       // the newest call has no parent
	early    int        // results kept for a call that starts later
	byResult int        // calls ended by a result
	byCut    int        // calls cut off by a cancel, a denial or a turn's end
}

// approval is one live call's approval state.
type approval struct {
	pending bool // asked, not answered
	asks    bool // asks for approval later in the trace
	asked   bool // has asked for approval
	turn    int  // the turn it started in
	batch   int  // the batch it started in (numbered from 1); 0 for a sub-agent call
}

// ready returns the index of the oldest live call that may report (no
// approval pending or still to ask), or -1.
func (c *call) ready() int {
	for k, a := range c.live {
		if !a.pending && !a.asks {
			return k
		}
	}
	return -1
}

// find returns the index of the oldest live call whose pending state is
// pending, or -1.
func (c *call) find(pending bool) int {
	for k, a := range c.live {
		if a.pending == pending {
			return k
		}
	}
	return -1
}

// newestPending returns the index of the newest live call awaiting an
// answer, or -1: an answer goes to the latest request (an older one an
// earlier turn left open may never be answered).
func (c *call) newestPending() int {
	for k := len(c.live) - 1; k >= 0; k-- {
		if c.live[k].pending {
			return k
		}
	}
	return -1
}

// end removes the k-th live call, which ended by a result or was cut off.
func (c *call) end(k int, byResult bool) {
	c.live = append(c.live[:k], c.live[k+1:]...)
	if byResult {
		c.byResult++
	} else {
		c.byCut++
	}
}

// judge walks a trace, deciding for each event which guarantee it
// breaks: one per event (the most specific), and, through later, any
// others the same event also breaks.
type judge struct {
	evs     []event.Event
	starts  map[string][]int // the indexes of each id's starts
	asked   map[string][]int // the indexes of each id's approval requests
	calls   map[string]*call
	byBatch map[string]map[string]bool // the ids of each batch id's starts
	run     map[string]bool            // the ids of the current run of starts without a batch id
	seen    map[string]bool            // every id started so far
	turn    int                        // turns started so far
	batch   bool                       // the last event was a top-level start
	batchID string                     // its batch
	batchNo int                        // top-level batches started so far
	later   []Guarantee
	// either, when set, is a second reading of the event (a reused id's
	// late result, or its next call's early one): the event is outside a
	// contract only when the contract rules out both readings.
	either List
}

func newJudge(evs []event.Event) *judge {
	j := &judge{evs: evs, starts: map[string][]int{}, asked: map[string][]int{}, calls: map[string]*call{},
		byBatch: map[string]map[string]bool{}, run: map[string]bool{}, seen: map[string]bool{}}
	for i := range evs {
		switch ev := &evs[i]; {
		case ev.Kind == event.KindToolStart:
			j.starts[ev.ID] = append(j.starts[ev.ID], i)
		case ev.Kind == event.KindPermission && ev.State == event.PermissionAsked:
			j.asked[ev.ID] = append(j.asked[ev.ID], i)
		}
	}
	return j
}

// live counts the calls still awaiting a result, not those awaiting
// approval.
func (j *judge) live() int {
	n := 0
	for _, c := range j.calls {
		n += len(c.live) - c.pendingCount()
	}
	return n
}

// liveTop reports whether a top-level call of this turn is live (an
// approval an earlier turn left open does not hold this one).
func (j *judge) liveTop() bool {
	for _, c := range j.calls {
		if c.top && slices.ContainsFunc(c.live, func(a approval) bool { return a.turn == j.turn }) {
			return true
		}
	}
	return false
}

// busyBatch reports whether a call of batch n other than c's k-th live
// call still runs or awaits an answer: all but calls that asked for
// approval and were granted (they run in the same next request).
func (j *judge) busyBatch(n int, c *call, k int) bool {
	for _, cc := range j.calls {
		for i, a := range cc.live {
			if (cc != c || i != k) && a.batch == n && !(a.asked && !a.pending) {
				return true
			}
		}
	}
	return false
}

// pendingCount counts the live calls awaiting an answer.
func (c *call) pendingCount() int {
	n := 0
	for _, a := range c.live {
		if a.pending {
			n++
		}
	}
	return n
}

// startsAfter reports whether id starts at an index after i.
func (j *judge) startsAfter(id string, i int) bool {
	s := j.starts[id]
	return len(s) > 0 && s[len(s)-1] > i
}

// asksBetween reports whether id asks for approval after i and before its
// next start.
func (j *judge) asksBetween(id string, i int) bool {
	next := len(j.evs)
	for _, s := range j.starts[id] {
		if s > i {
			next = s
			break
		}
	}
	for _, a := range j.asked[id] {
		if a > i && a < next {
			return true
		}
	}
	return false
}
