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

// driver feeds a trace to an engine, event by event or in one batch, and
// notices engine failures reported through an Err() error method.
type driver struct {
	eng   Engine
	evs   []event.Event
	batch []*timeline.Timeline // from Replay; nil when applying one by one
	err   error
	last  *timeline.Timeline
}

func newDriver(eng Engine, evs []event.Event) *driver {
	d := &driver{eng: eng, evs: evs}
	if r, ok := eng.(replayer); ok {
		tls, err := r.Replay(evs, true)
		if !errors.Is(err, errNoBatch) {
			d.batch, d.err = tls, err
			if d.batch == nil {
				d.batch = []*timeline.Timeline{}
			}
		}
	}
	return d
}

// apply applies event i (i == len(evs): Finish) and returns the timeline
// after it, or false when the engine failed.
func (d *driver) apply(i int) (*timeline.Timeline, bool) {
	if d.batch != nil {
		if i >= len(d.batch) {
			if d.err == nil {
				d.err = fmt.Errorf("the engine sent %d timelines for %d events", len(d.batch), len(d.evs))
			}
			return nil, false
		}
		d.last = d.batch[i]
		return d.last, true
	}
	if i < len(d.evs) {
		d.eng.Apply(&d.evs[i])
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
// rule included, and returns its last timeline.
func finalTimeline(newEngine func() Engine, evs []event.Event) (*timeline.Timeline, error) {
	eng := newEngine()
	defer closeEngine(eng)
	d := newDriver(eng, evs)
	for i := 0; i <= len(evs); i++ {
		if _, ok := d.apply(i); !ok {
			return nil, d.err
		}
	}
	return d.last, nil
}
