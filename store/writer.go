package store

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// DefaultT0 is the wall time of trace t=0 unless Options.T0 says otherwise.
var DefaultT0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// Options configure Persist.
type Options struct {
	Faults fault.List // the log faults to apply (trace faults are ignored)
	Seed   uint64     // drives every random choice of the faults
	T0     time.Time  // wall time of trace t=0; DefaultT0 if zero
	Fine   bool       // one record per text or thinking delta instead of one per segment
}

// Persisted is a log written while replaying a trace, and the events it
// still represents.
type Persisted struct {
	Log []byte
	// Expected are the events whose records reached the log whole, in trace
	// order, with t as the log stamps it. A live UI that saw exactly these
	// events (then the stream ended) shows what a correct rebuild shows.
	// When every event reached the log unchanged it is the slice given to
	// Persist itself (clipped to its length), not a copy: read it, do not
	// change it.
	Expected []event.Event
}

// Persist writes the log a live application would have written while the
// events arrived, applying the faults in opts.
func Persist(evs []event.Event, opts Options) *Persisted {
	w := newWriter(opts, len(evs))
	for i := range evs {
		if i == w.killAt {
			return w.finish(evs, false)
		}
		w.lastT = evs[i].T
		w.event(i, &evs[i])
	}
	return w.finish(evs, true)
}

// pending is a record not written yet, with the events it stands for.
type pending struct {
	rec    Record
	events []int
}

// line is a written line and the events it stands for.
type line struct {
	start, end int
	events     []int
}

type writer struct {
	opts   Options
	has    map[fault.Fault]bool
	rng    *rand.Rand
	killAt int

	nextID int
	seq    int64
	lastID string
	lastT  int64 // t of the last event handled

	out      bytes.Buffer
	lines    []line
	text     *pending              // the open text or thinking segment
	held     []*pending            // late-text: segments waiting for the turn's end
	sub      map[string][]*pending // subagent-block: child records by root call
	root     map[string]string     // call id → root call id, for sub-agent tools
	life     map[string]*pending   // collapse: open lifecycles by call id
	lifeKeys []string              // open lifecycles in start order
	orphans  map[string]int        // collapse: results written before any call of their id was open
	dupNext  []byte                // a retried line to write after the next one
	stream   bool                  // a LogWriter: w.lines holds only the last line, without events
	scratch  []byte                // the line being encoded, reused
	free     []*pending            // written records, for open to reuse
	day      dayStamp              // the date part of the last stamp
}

// presize and lineGuess size a new writer's buffers: up to presize
// events' worth of lines of lineGuess bytes.
const (
	presize   = 64
	lineGuess = 192
)

func newWriter(opts Options, n int) *writer {
	if opts.T0.IsZero() {
		opts.T0 = DefaultT0
	}
	w := &writer{
		opts: opts, has: map[fault.Fault]bool{}, rng: rand.New(rand.NewPCG(opts.Seed, 0x5702e)),
		killAt: -1, sub: map[string][]*pending{}, root: map[string]string{}, life: map[string]*pending{}, orphans: map[string]int{},
	}
	for _, f := range opts.Faults {
		w.has[f] = true
	}
	// Room for a short trace's log, about a line per event, so that the
	// many short traces a campaign persists do not grow it step by step.
	short := min(n, presize)
	w.out.Grow(256 + short*lineGuess)
	w.lines = make([]line, 0, short+1)
	if w.has[fault.Kill] && n > 0 {
		w.killAt = 1 + w.rng.IntN(n)
	}
	w.writeHeader()
	return w
}

func (w *writer) writeHeader() {
	names := make([]string, len(w.opts.Faults))
	for i, f := range w.opts.Faults {
		names[i] = string(f)
	}
	h := Header{Log: LogVersion, T0: FormatTime(w.opts.T0), Writer: "toolsim persist", Faults: names, Seed: w.opts.Seed}
	w.scratch = appendHeader(w.scratch[:0], &h)
	w.out.Write(w.scratch)
	w.out.WriteByte('\n')
}

// clock converts trace t to the logged wall time, at 10 ms resolution under
// the Ties fault.
func (w *writer) clock(t int64) int64 {
	if w.has[fault.Ties] {
		t -= t % 10
	}
	return t
}

func (w *writer) stamp(t int64) string {
	// Whole milliseconds since the epoch: a time.Duration would overflow
	// past 292 years, and a trace's clock may run to 10^18 ms.
	ms := w.opts.T0.UnixMilli() + w.clock(t)
	return w.day.stamp(ms)
}

// open reserves a record's place in event order: id, seq and parent.
func (w *writer) open(typ string, t int64, events ...int) *pending {
	w.nextID++
	p := w.newPending()
	*p = pending{rec: Record{V: RecordVersion, ID: "r" + strconv.Itoa(w.nextID), TS: w.stamp(t), Type: typ}, events: events}
	if !w.has[fault.NoSeq] {
		w.seq++
		s := w.seq
		p.rec.Seq = &s
	}
	if !w.has[fault.NoParent] {
		p.rec.Parent = w.lastID
	}
	w.lastID = p.rec.ID
	return p
}

// newPending returns a pending record to fill: one written before, or a
// new one.
func (w *writer) newPending() *pending {
	if n := len(w.free); n > 0 {
		p := w.free[n-1]
		w.free = w.free[:n-1]
		return p
	}
	return new(pending)
}

// recycle takes back a pending record nothing refers to any more.
func (w *writer) recycle(p *pending) { w.free = append(w.free, p) }

// write appends a record as a line, maybe twice under the Dup fault. The
// pending record is recycled: its caller lets go of it.
func (w *writer) write(p *pending) {
	b, _ := appendRecord(w.scratch[:0], &p.rec)
	b = append(b, '\n')
	w.scratch = b
	w.emit(b, p.events)
	if w.dupNext != nil {
		w.emit(w.dupNext, nil)
		w.dupNext = nil
	}
	if w.has[fault.Dup] && w.rng.IntN(6) == 0 {
		if w.rng.IntN(2) == 0 {
			w.emit(b, p.events)
		} else {
			w.dupNext = slices.Clone(b) // b is the scratch buffer
		}
	}
	w.recycle(p)
}

func (w *writer) emit(b []byte, events []int) {
	start := w.out.Len()
	w.out.Write(b)
	if w.stream {
		events = nil // nobody works out Expected
	}
	w.lines = append(w.lines, line{start: start, end: w.out.Len(), events: events})
}

// finish flushes what a clean shutdown flushes, applies the torn tail, and
// works out which events the log still holds.
func (w *writer) finish(evs []event.Event, clean bool) *Persisted {
	if clean {
		w.flushAll()
	}
	w.tear()
	return &Persisted{Log: w.out.Bytes(), Expected: w.expected(evs)}
}

// flushAll writes what a clean shutdown flushes.
func (w *writer) flushAll() {
	w.closeText()
	w.flushHeld()
	w.flushLifecycles(w.lastT)
	w.flushAllSub()
	if w.dupNext != nil {
		w.emit(w.dupNext, nil)
		w.dupNext = nil
	}
}

// tear applies the torn fault: the last line is cut short.
func (w *writer) tear() {
	if !w.has[fault.Torn] || len(w.lines) == 0 {
		return
	}
	last := &w.lines[len(w.lines)-1]
	cut := last.start + w.rng.IntN(max(last.end-last.start-1, 1))
	w.out.Truncate(max(cut, last.start))
	last.events = nil
}

// expected lists the events some whole line stands for, t as logged.
func (w *writer) expected(evs []event.Event) []event.Event {
	covered := make([]bool, len(evs))
	n := 0
	for _, l := range w.lines {
		for _, i := range l.events {
			if !covered[i] {
				covered[i] = true
				n++
			}
		}
	}
	if n == 0 {
		return nil
	}
	if n == len(evs) && !w.has[fault.Ties] {
		return slices.Clip(evs) // every event whole, t unchanged: the trace itself (clipped: an append copies)
	}
	out := make([]event.Event, 0, n)
	for i, ok := range covered {
		if ok {
			ev := evs[i]
			ev.T = w.clock(ev.T)
			out = append(out, ev)
		}
	}
	return out
}
