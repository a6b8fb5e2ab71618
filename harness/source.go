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

// next reads one event into a fresh value: engines may keep the pointers
// they are given (a result that arrived before its start waits in the
// engine), so no event value is reused.
func next(src Source) (*event.Event, error) {
	if p, ok := src.(pointerSource); ok {
		return p.nextPtr()
	}
	ev := new(event.Event)
	if err := src.Next(ev); err != nil {
		return nil, err
	}
	return ev, nil
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
// reports, once the stream ended, whether anything moved.
type reversing struct {
	src   Source
	run   []*event.Event // the run being gathered
	out   []*event.Event // reversed events waiting to be read
	held  *event.Event   // the event that ended the run
	ids   map[string]bool
	moved bool
	err   error
}

func newReversing(src Source) *reversing { return &reversing{src: src, ids: map[string]bool{}} }

func (r *reversing) Next(ev *event.Event) error {
	p, err := r.nextPtr()
	if err == nil {
		*ev = *p
	}
	return err
}

// nextPtr hands out the next event: the source's own, or a moved copy.
func (r *reversing) nextPtr() (*event.Event, error) {
	for len(r.out) == 0 {
		if r.err != nil {
			return nil, r.err
		}
		r.fill()
	}
	p := r.out[0]
	r.out = r.out[1:]
	return p, nil
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
			if ev, err = next(r.src); err != nil {
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

// emit moves the gathered run to out, reversed when it holds two or more.
func (r *reversing) emit() {
	n := len(r.run)
	r.out = r.out[:0]
	if n < 2 {
		r.out = append(r.out, r.run...)
		return
	}
	moved := make([]event.Event, n)
	for k := range n {
		moved[k] = *r.run[n-1-k]
		moved[k].Seq, moved[k].T = r.run[k].Seq, r.run[k].T
		r.out = append(r.out, &moved[k])
	}
	r.moved = true
}
