package importer

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/toolsim/toolsim/event"
)

// Builder accumulates canonical events. It numbers them (seq 1, 2, ...) and
// keeps the trace clock non-decreasing: a source timestamp earlier than the
// previous event's is clamped up to it, and the original is kept on the
// event as the unknown field "src_t" so nothing is lost.
//
// Clock: with source timestamps, t is milliseconds since the first
// timestamped record. Without them (At with ok=false), the synthetic clock
// advances SyntheticStep ms per event.
type Builder struct {
	opts     Options
	result   Result
	origin   time.Time
	haveTime bool
	lastT    int64
	line     int  // the source line being mapped, when the importer says
	realTime bool // some t came from a source timestamp or arrival stamp
	stepped  bool // some t came from the synthetic clock

	// Events are gathered in chunks and joined into result.Events by
	// Result: appending to one slice would copy every event several times
	// over as it grows (by 1.25x once large).
	pending [][]event.Event
	count   int // events emitted so far
}

// maxChunk bounds a chunk of pending events (about 1 MB of events).
const maxChunk = 4096

// SyntheticStep is how far the synthetic clock moves per event, in ms.
const SyntheticStep = 1

// NewBuilder starts a trace from the named source format.
func NewBuilder(source string, opts Options) *Builder {
	b := &Builder{opts: opts}
	b.result.Header = event.Header{Trace: event.Version, Source: source}
	return b
}

// SetLine tells the builder which source line is being mapped, so that
// records without a timestamp of their own can use its arrival stamp.
func (b *Builder) SetLine(n int) { b.line = n }

// Clock converts a source timestamp to trace milliseconds. ok=false means
// the source gave no usable time: the line's arrival stamp is used when
// there is one (Options.Stamps, SetLine), else the synthetic clock.
func (b *Builder) Clock(ts time.Time, ok bool) int64 {
	if !ok || ts.IsZero() {
		if b.line > 0 && b.line <= len(b.opts.Stamps) {
			b.realTime = true
			return b.opts.Stamps[b.line-1]
		}
		b.stepped = true
		return b.lastT + SyntheticStep
	}
	b.realTime = true
	if !b.haveTime {
		b.origin, b.haveTime = ts, true
	}
	return ts.Sub(b.origin).Milliseconds()
}

// Emit appends ev at trace time t (see Clock).
func (b *Builder) Emit(t int64, ev event.Event) {
	if t < b.lastT {
		ev.Extra = append(ev.Extra, event.Field{Key: "src_t", Value: json.RawMessage(strconv.FormatInt(t, 10))})
		t = b.lastT
	}
	b.lastT = t
	b.count++
	ev.Seq = int64(b.count)
	ev.T = t
	last := len(b.pending) - 1
	if last < 0 || len(b.pending[last]) == cap(b.pending[last]) {
		b.pending = append(b.pending, make([]event.Event, 0, min(max(64, b.count), maxChunk)))
		last++
	}
	b.pending[last] = append(b.pending[last], ev)
}

// Now is the trace time of the last event.
func (b *Builder) Now() int64 { return b.lastT }

// Problem records a line the importer could not fully map. Under
// Options.Strict it returns a *StrictError to stop the import; otherwise nil.
func (b *Builder) Problem(line int, reason string) error {
	p := Problem{Line: line, Reason: reason}
	b.result.Problems = append(b.result.Problems, p)
	if b.opts.Strict {
		return &StrictError{Name: b.opts.Name, Problem: p}
	}
	return nil
}

// SetMeta sets the header's meta object.
func (b *Builder) SetMeta(meta map[string]any) {
	if raw, err := json.Marshal(meta); err == nil {
		b.result.Header.Meta = raw
	}
}

// NoteClock adds "clock":"synthetic" to the header's meta when every event
// so far is on the synthetic clock. Importers call it last, after SetMeta.
func (b *Builder) NoteClock() {
	if b.stepped && !b.realTime && b.count > 0 {
		b.result.Header.Meta = withMember(b.result.Header.Meta, event.MetaClock, event.ClockSynthetic)
	}
}

// Result returns the trace built so far.
func (b *Builder) Result() *Result {
	switch {
	case len(b.pending) == 0:
	case len(b.pending) == 1 && b.result.Events == nil:
		b.result.Events = b.pending[0]
	default:
		n := len(b.result.Events)
		for _, c := range b.pending {
			n += len(c)
		}
		events := make([]event.Event, 0, n)
		events = append(events, b.result.Events...)
		for _, c := range b.pending {
			events = append(events, c...)
		}
		b.result.Events = events
	}
	b.pending = nil
	return &b.result
}

// withMember returns the JSON object meta with key set to value; meta
// that is not an object is kept unchanged.
func withMember(meta json.RawMessage, key, value string) json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(meta) > 0 && json.Unmarshal(meta, &m) != nil {
		return meta
	}
	v, _ := json.Marshal(value)
	m[key] = v
	raw, err := json.Marshal(m)
	if err != nil {
		return meta
	}
	return raw
}
