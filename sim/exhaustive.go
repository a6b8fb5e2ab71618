package sim

import (
	"encoding/json"
	"fmt"
	"math/bits"

	"github.com/toolsim/toolsim/event"
)

// Limits of [ExhaustiveOptions]: beyond them the enumeration explodes.
const (
	maxExhaustiveTools    = 4
	maxExhaustiveProgress = 2
)

// exhaustiveHead is the number of events before the batch: turn_start and
// one text event.
const exhaustiveHead = 2

// exhaustiveBatch is the batch id of the batch's starts under BatchIDs.
const exhaustiveBatch = "msg_1"

// exhaustiveStep is how far the trace clock advances per event, in ms.
const exhaustiveStep = 10

// ExhaustiveOptions shape an exhaustive enumeration.
type ExhaustiveOptions struct {
	Tools    int  // tools in the batch, 1..4 (values above 4 are an error)
	Progress int  // progress updates per tool, 0..2
	Cancel   bool // also enumerate a cancel at every point
	BatchIDs bool // give the tool_start events a batch id
	// BothBatchModes yields every trace twice: without batch ids, then with
	// (BatchIDs is then ignored), so one run covers grouping by adjacency
	// and by id. It doubles the count.
	BothBatchModes bool
}

func (o ExhaustiveOptions) check() error {
	if o.Tools < 1 || o.Tools > maxExhaustiveTools {
		return fmt.Errorf("sim: ExhaustiveOptions.Tools = %d, want 1..%d", o.Tools, maxExhaustiveTools)
	}
	if o.Progress < 0 || o.Progress > maxExhaustiveProgress {
		return fmt.Errorf("sim: ExhaustiveOptions.Progress = %d, want 0..%d", o.Progress, maxExhaustiveProgress)
	}
	return nil
}

// ExhaustiveCount returns how many traces Exhaustive yields for opts,
// without building them (or an error for bad options).
//
// It walks the same states as [Exhaustive] but memoizes the number of traces
// below each state (how far each tool has got), so it visits at most
// (Progress+3)^Tools states.
func ExhaustiveCount(opts ExhaustiveOptions) (int, error) {
	if err := opts.check(); err != nil {
		return 0, err
	}
	x := newExhaustive(opts, nil)
	modes := 1
	if opts.BothBatchModes {
		modes = 2
	}
	size := 1
	for range opts.Tools {
		size *= x.m + 1
	}
	memo := make([]int, size)
	for i := range memo {
		memo[i] = -1
	}
	return modes * x.count(0, memo), nil
}

// Exhaustive calls yield with every trace for opts, in a fixed deterministic
// order, until yield returns false. The slice passed to yield is reused
// between calls: yield must copy what it keeps (and must not modify the
// Args bytes, which all traces share). It returns an error for bad options
// (Tools outside 1..4, Progress outside 0..2) naming the field.
//
// Every trace is one assistant turn: turn_start, a text event, the batch,
// then turn_end. The batch has Tools tools t1..tN (grep, read, bash, glob);
// each has a tool_start, Progress tool_progress events and a tool_done
// (t2's fails with "exit status 1", the others succeed). The batch events
// run through every order in which each tool's events keep their own order
// and the tools start in issue order (t1's start before t2's, and so on);
// starts may come between other tools' progress and results. Seq runs 1..n
// and t advances 10ms per event.
//
// Without Cancel, each such order is one trace. With Cancel every trace has
// exactly one cancel ("user pressed Esc") and the full orders are not
// yielded on their own. For every prefix of 1..L batch events of some order
// (L the full batch length; a cancel before any tool starts is not a batch
// ordering, so k = 0 is left out) Exhaustive yields:
//
//	(a) prefix, cancel, turn_end: the rest of the batch is dropped;
//	(b) prefix, cancel, the tool_done of every tool that started but had not
//	    finished (late results), turn_end, once for each order of those
//	    results. Progress is never late, and a tool that had not started
//	    gets no result. When no tool is in flight (b) would equal (a) and is
//	    not yielded.
//
// The traces are distinct: a prefix shared by many orders is yielded once,
// and (b) over all orders sharing a prefix is exactly every order of the
// late results.
//
// Order: a depth-first walk that at each step tries the tools in increasing
// index; with Cancel a prefix's traces come before those of its extensions,
// (a) before (b), late results in lexicographic order of tool index.
func Exhaustive(opts ExhaustiveOptions, yield func(evs []event.Event) bool) error {
	if err := opts.check(); err != nil {
		return err
	}
	if opts.BothBatchModes {
		opts.BatchIDs = false
		yield = withBatchIDs(yield)
	}
	newExhaustive(opts, yield).walk(0)
	return nil
}

// withBatchIDs yields each trace as it is, then with exhaustiveBatch on
// every tool_start, and puts the trace back as it was.
func withBatchIDs(yield func([]event.Event) bool) func([]event.Event) bool {
	return func(evs []event.Event) bool {
		if !yield(evs) {
			return false
		}
		setBatch(evs, exhaustiveBatch)
		ok := yield(evs)
		setBatch(evs, "")
		return ok
	}
}

func setBatch(evs []event.Event, id string) {
	for i := range evs {
		if evs[i].Kind == event.KindToolStart {
			evs[i].Batch = id
		}
	}
}

// exhaustive is the state of one enumeration.
type exhaustive struct {
	opts  ExhaustiveOptions
	m     int             // events per tool: start, progress..., done
	total int             // batch events when every tool runs to the end
	tmpl  [][]event.Event // tmpl[i][j]: tool i's j-th event, seq and t unset
	pos   []int           // events of each tool placed so far
	buf   []event.Event   // the trace being built, reused
	yield func([]event.Event) bool
}

var exhaustiveTools = []string{"grep", "read", "bash", "glob"}

func newExhaustive(opts ExhaustiveOptions, yield func([]event.Event) bool) *exhaustive {
	m := opts.Progress + 2
	x := &exhaustive{
		opts:  opts,
		m:     m,
		total: opts.Tools * m,
		tmpl:  make([][]event.Event, opts.Tools),
		pos:   make([]int, opts.Tools),
		yield: yield,
	}
	// head, batch, cancel, late results, turn_end
	x.buf = make([]event.Event, exhaustiveHead+x.total+1+opts.Tools+1)
	for i := range opts.Tools {
		x.tmpl[i] = exhaustiveToolEvents(opts, i)
	}
	x.put(0, event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
	x.put(1, event.Event{Kind: event.KindText, Text: "Checking."})
	return x
}

// exhaustiveToolEvents returns the events of tool i (0-based) in their causal order.
func exhaustiveToolEvents(opts ExhaustiveOptions, i int) []event.Event {
	id := fmt.Sprintf("t%d", i+1)
	args, _ := json.Marshal(map[string]string{"path": fmt.Sprintf("src/%c.go", 'a'+i)})
	start := event.Event{Kind: event.KindToolStart, ID: id, Name: exhaustiveTools[i%len(exhaustiveTools)], Args: args}
	if opts.BatchIDs {
		start.Batch = exhaustiveBatch
	}
	evs := []event.Event{start}
	for k := range opts.Progress {
		evs = append(evs, event.Event{Kind: event.KindToolProgress, ID: id, Output: fmt.Sprintf("chunk %d\n", k+1)})
	}
	done := event.Event{Kind: event.KindToolDone, ID: id, OK: true, Output: "done\n"}
	if i == 1 {
		done = event.Event{Kind: event.KindToolDone, ID: id, OK: false, Error: "exit status 1"}
	}
	return append(evs, done)
}

// put stores ev at index at of the trace, with its seq and t.
func (x *exhaustive) put(at int, ev event.Event) {
	ev.Seq = int64(at + 1)
	ev.T = int64(at * exhaustiveStep)
	x.buf[at] = ev
}

// canStep reports whether tool i may place its next event now.
func (x *exhaustive) canStep(i int) bool {
	if x.pos[i] == x.m {
		return false
	}
	return x.pos[i] > 0 || i == 0 || x.pos[i-1] > 0
}

// walk yields every trace below the current prefix of depth batch events
// and reports whether to go on.
func (x *exhaustive) walk(depth int) bool {
	if x.opts.Cancel && depth > 0 && !x.cancelAt(exhaustiveHead+depth) {
		return false
	}
	if depth == x.total && !x.opts.Cancel {
		return x.finish(exhaustiveHead + depth)
	}
	for i := range x.opts.Tools {
		if !x.canStep(i) {
			continue
		}
		x.put(exhaustiveHead+depth, x.tmpl[i][x.pos[i]])
		x.pos[i]++
		ok := x.walk(depth + 1)
		x.pos[i]--
		if !ok {
			return false
		}
	}
	return true
}

// cancelAt yields the cancelled traces of the current prefix, whose cancel
// goes at index at: (a) without and (b) with late results.
func (x *exhaustive) cancelAt(at int) bool {
	x.put(at, event.Event{Kind: event.KindCancel, Reason: "user pressed Esc"})
	if !x.finish(at + 1) {
		return false
	}
	if inflight := x.inflight(); inflight != 0 {
		return x.late(at+1, inflight)
	}
	return true
}

// inflight returns the set of tools (bit i: tool i) that started but have
// not finished.
func (x *exhaustive) inflight() uint {
	var set uint
	for i, p := range x.pos {
		if p > 0 && p < x.m {
			set |= 1 << i
		}
	}
	return set
}

// late places the results of the tools in pending from index at, in every
// order, and yields each trace.
func (x *exhaustive) late(at int, pending uint) bool {
	if pending == 0 {
		return x.finish(at)
	}
	for i := range x.opts.Tools {
		if pending&(1<<i) == 0 {
			continue
		}
		x.put(at, x.tmpl[i][x.m-1])
		if !x.late(at+1, pending&^(1<<i)) {
			return false
		}
	}
	return true
}

// finish ends the trace with turn_end at index at and yields it.
func (x *exhaustive) finish(at int) bool {
	x.put(at, event.Event{Kind: event.KindTurnEnd})
	return x.yield(x.buf[:at+1])
}

// count returns the number of traces walk yields below the current state,
// memoized by state.
func (x *exhaustive) count(depth int, memo []int) int {
	key := 0
	for _, p := range x.pos {
		key = key*(x.m+1) + p
	}
	if memo[key] >= 0 {
		return memo[key]
	}
	n := x.own(depth)
	for i := range x.opts.Tools {
		if x.canStep(i) {
			x.pos[i]++
			n += x.count(depth+1, memo)
			x.pos[i]--
		}
	}
	memo[key] = n
	return n
}

// own returns the number of traces the current state yields itself.
func (x *exhaustive) own(depth int) int {
	switch {
	case x.opts.Cancel && depth > 0:
		n := 1 // (a)
		if r := bits.OnesCount(x.inflight()); r > 0 {
			f := 1 // (b): one per order of the r late results
			for k := 2; k <= r; k++ {
				f *= k
			}
			n += f
		}
		return n
	case depth == x.total && !x.opts.Cancel:
		return 1
	}
	return 0
}
