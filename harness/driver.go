package harness

import (
	"errors"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// replayer is implemented by engines that can take a whole trace at once
// and hand back the timeline after each event (and after Finish): the
// batch mode of external engines, which saves a round trip per event.
type replayer interface {
	Replay(evs []event.Event, finish bool) ([]*timeline.Timeline, error)
}

// finalReplayer is implemented by engines that can take a whole trace at
// once and hand back only the timeline after Finish, cheaper than every
// timeline when that is all a replay needs.
type finalReplayer interface {
	ReplayFinal(evs []event.Event) (*timeline.Timeline, error)
}

// driver feeds a trace to an engine, event by event or in one batch, and
// notices engine failures reported through an Err() error method.
type driver struct {
	eng   Engine
	n     int                  // events applied so far
	evs   int                  // batch mode: how many events the batch held
	batch []*timeline.Timeline // from Replay; nil when applying one by one
	err   error
	last  *timeline.Timeline
}

// newDriver returns a driver for eng and the stream of events to feed it.
// An engine with a batch mode (replayer) takes the whole trace at once:
// the stream is read to its end first, and the events it held are
// streamed again from memory.
func newDriver(eng Engine, src Source) (*driver, Source, error) {
	d := &driver{eng: eng}
	r, ok := eng.(replayer)
	if !ok {
		return d, src, nil
	}
	evs, err := drain(src)
	if err != nil {
		return nil, nil, err
	}
	tls, err := r.Replay(evs, true)
	if !errors.Is(err, errNoBatch) {
		d.batch, d.err, d.evs = tls, err, len(evs)
		if d.batch == nil {
			d.batch = []*timeline.Timeline{}
		}
	}
	return d, SliceSource(evs), nil
}

// apply applies ev (nil: Finish) and returns the timeline after it, or
// false when the engine failed.
func (d *driver) apply(ev *event.Event) (*timeline.Timeline, bool) {
	i := d.n
	d.n++
	if d.batch != nil {
		if i >= len(d.batch) {
			if d.err == nil {
				d.err = fmt.Errorf("the engine sent %d timelines for %d events", len(d.batch), d.evs)
			}
			return nil, false
		}
		d.last = d.batch[i]
		return d.last, true
	}
	if ev != nil {
		d.eng.Apply(ev)
	} else {
		d.eng.Finish()
	}
	if e, ok := d.eng.(interface{ Err() error }); ok && e.Err() != nil {
		d.err = e.Err()
		return nil, false
	}
	d.last = d.eng.Timeline()
	return d.last, true
}

// closeEngine releases an engine that holds resources (a process).
func closeEngine(e Engine) {
	if c, ok := e.(io.Closer); ok {
		c.Close()
	}
}

// finalTimeline runs a whole trace through a fresh engine, end-of-stream
// rule included, and returns its last timeline. A read error of the
// stream is returned as an *inputError.
func finalTimeline(newEngine func() Engine, src Source) (*timeline.Timeline, error) {
	eng := newEngine()
	defer closeEngine(eng)
	if r, ok := eng.(finalReplayer); ok {
		evs, err := drain(src)
		if err != nil {
			return nil, &inputError{err}
		}
		tl, err := r.ReplayFinal(evs)
		if !errors.Is(err, errNoBatch) {
			return tl, err
		}
		src = SliceSource(evs)
	}
	d, src, err := newDriver(eng, src)
	if err != nil {
		return nil, &inputError{err}
	}
	rd := newReader(src, copiesEvents(eng))
	for {
		ev, err := rd.next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &inputError{err}
		}
		if _, ok := d.apply(ev); !ok {
			return nil, d.err
		}
	}
	if _, ok := d.apply(nil); !ok {
		return nil, d.err
	}
	return d.last, nil
}
