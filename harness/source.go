package harness

import (
	"errors"
	"io"

	"github.com/toolsim/toolsim/event"
)

// Source yields a trace's events one at a time: Next fills ev and returns
// io.EOF after the last event. An *event.Reader is one.
type Source interface {
	Next(ev *event.Event) error
}

// SliceSource streams events held in memory.
func SliceSource(evs []event.Event) Source { return &sliceSource{evs: evs} }

type sliceSource struct {
	evs []event.Event
	i   int
}

// pointerSource is a stream whose events already live in memory that no
// one reuses: next hands them out as they are, without a copy.
type pointerSource interface {
	nextPtr() (*event.Event, error)
}

func (s *sliceSource) nextPtr() (*event.Event, error) {
	if s.i >= len(s.evs) {
		return nil, io.EOF
	}
	s.i++
	return &s.evs[s.i-1], nil // the caller's own events
}

func (s *sliceSource) Next(ev *event.Event) error {
	if s.i >= len(s.evs) {
		return io.EOF
	}
	*ev = s.evs[s.i]
	s.i++
	return nil
}

// reader hands out the events of a stream. An engine may keep the
// pointers it is given (a result that arrived before its start waits in
// the engine), so each event gets a fresh value, unless every engine the
// events go to copies what it keeps (copiesEvents): then one value is
// read into again and again, which saves a long trace a value per event
// per replay. Events already in memory (a pointerSource) are handed out
// as they are; a stream that hands out values of its own (the reordered
// stream) is told it may reuse them.
type reader struct {
	src   Source
	reuse bool
	buf   event.Event
}

func newReader(src Source, reuse bool) *reader {
	if r, ok := src.(interface{ reuseValues() }); ok && reuse {
		r.reuseValues()
	}
	return &reader{src: src, reuse: reuse}
}

func (r *reader) next() (*event.Event, error) {
	if p, ok := r.src.(pointerSource); ok {
		return p.nextPtr()
	}
	ev := &r.buf
	if !r.reuse {
		ev = new(event.Event)
	}
	if err := r.src.Next(ev); err != nil {
		return nil, err
	}
	return ev, nil
}

// copiesEvents reports whether every engine given copies what it keeps of
// an event, by its optional CopiesEvents method (see Engine); nil engines
// are left out.
func copiesEvents(engs ...Engine) bool {
	for _, e := range engs {
		if e == nil {
			continue
		}
		if c, ok := e.(interface{ CopiesEvents() bool }); !ok || !c.CopiesEvents() {
			return false
		}
	}
	return true
}

// failing is a stream that cannot be read.
type failing struct{ err error }

func (f failing) Next(*event.Event) error { return f.err }

// drain reads a stream to its end.
func drain(src Source) ([]event.Event, error) {
	if s, ok := src.(*sliceSource); ok {
		return s.evs[s.i:], nil
	}
	var evs []event.Event
	for {
		var ev event.Event
		err := src.Next(&ev)
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return nil, err
		}
		evs = append(evs, ev)
	}
}

// inputError is a failure to read the trace under check (not the
// engine's): CheckSource returns it as its error.
type inputError struct{ err error }

func (e *inputError) Error() string { return "reading the trace: " + e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// asInput reports whether err is a failure to read the trace.
func asInput(err error) (*inputError, bool) {
	var ie *inputError
	ok := errors.As(err, &ie)
	return ie, ok
}

// reversing streams a trace with each run of two or more consecutive
// tool_done events for distinct, non-empty ids delivered in reverse order,
// every position keeping its seq and t (the order oracle's trace). Moved
// reports, once the stream ended, whether anything moved. With reuse (the
// engine copies what it keeps) and a stream not in memory, an event handed
// out goes back to a pool of values when the next is asked for.
type reversing struct {
	src   Source
	reuse bool
	run   []*event.Event // the run being gathered
	out   []*event.Event // reversed events waiting to be read
	held  *event.Event   // the event that ended the run
	given *event.Event   // the event handed out last (reuse)
	free  []*event.Event // values to read into (reuse)
	ids   map[string]bool
	moved bool
	err   error
}

func newReversing(src Source) *reversing { return &reversing{src: src, ids: map[string]bool{}} }

// reuseValues lets the stream reuse the values it hands out, once the
// engine it feeds is known to copy what it keeps; a stream in memory
// hands out its own values and has none to reuse.
func (r *reversing) reuseValues() {
	_, inMemory := r.src.(pointerSource)
	r.reuse = !inMemory
}

func (r *reversing) Next(ev *event.Event) error {
	p, err := r.nextPtr()
	if err == nil {
		*ev = *p
	}
	return err
}

// nextPtr hands out the next event: the source's own, or a moved copy.
func (r *reversing) nextPtr() (*event.Event, error) {
	r.release(r.given)
	r.given = nil
	for len(r.out) == 0 {
		if r.err != nil {
			return nil, r.err
		}
		r.fill()
	}
	p := r.out[0]
	r.out = r.out[1:]
	r.given = p
	return p, nil
}

// alloc returns a value to read an event into.
func (r *reversing) alloc() *event.Event {
	if n := len(r.free); n > 0 {
		ev := r.free[n-1]
		r.free = r.free[:n-1]
		return ev
	}
	return new(event.Event)
}

// release returns a value no one holds any more to the pool (reuse only).
func (r *reversing) release(ev *event.Event) {
	if r.reuse && ev != nil {
		r.free = append(r.free, ev)
	}
}

// fill gathers the next run (or one event) into out.
func (r *reversing) fill() {
	r.run = r.run[:0]
	clear(r.ids)
	for {
		ev := r.held
		r.held = nil
		if ev == nil {
			var err error
			if ev, err = r.read(); err != nil {
				r.err = err
				break
			}
		}
		if !(ev.Kind == event.KindToolDone && ev.ID != "" && !r.ids[ev.ID]) {
			if len(r.run) == 0 {
				r.out = append(r.out[:0], ev)
				return
			}
			r.held = ev
			break
		}
		r.ids[ev.ID] = true
		r.run = append(r.run, ev)
	}
	r.emit()
}

// read reads the source's next event: its own value when it is in
// memory, else one of the pool's or a fresh one.
func (r *reversing) read() (*event.Event, error) {
	if p, ok := r.src.(pointerSource); ok {
		return p.nextPtr()
	}
	ev := r.alloc()
	if err := r.src.Next(ev); err != nil {
		r.release(ev)
		return nil, err
	}
	return ev, nil
}

// emit moves the gathered run to out, reversed when it holds two or more.
func (r *reversing) emit() {
	n := len(r.run)
	r.out = r.out[:0]
	if n < 2 {
		r.out = append(r.out, r.run...)
		return
	}
	for k := range n {
		moved := r.alloc()
		*moved = *r.run[n-1-k]
		moved.Seq, moved.T = r.run[k].Seq, r.run[k].T
		r.out = append(r.out, moved)
	}
	for _, ev := range r.run {
		r.release(ev)
	}
	r.moved = true
}
