package harness

import (
	"errors"
	"fmt"
	"io"
	"slices"

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

// snapshotter is implemented by engines whose timelines are built from
// deltas and that can send their whole timeline: an external engine that
// declares the delta and snapshot capabilities. A delta carries only the
// items whose version moved, so an item the engine changed in place under
// the same version stays stale on toolsim's side; the snapshot shows it.
type snapshotter interface {
	canSnapshot() bool
	// snapshot returns the engine's whole current timeline; it changes
	// nothing, and the next delta applies to the last timeline sent.
	snapshot() (*timeline.Timeline, error)
}

// driver feeds a trace to an engine, event by event or in one batch, and
// notices engine failures reported through an Err() error method. With
// snapshots it also asks a snapshotter for its whole timeline at snapshot
// points (see snapshot) and keeps those that differ from the timeline the
// deltas built.
type driver struct {
	eng   Engine
	n     int                  // events applied so far
	evs   int                  // batch mode: how many events the batch held
	batch []*timeline.Timeline // from Replay; nil when applying one by one
	err   error
	last  *timeline.Timeline
	snap  snapshotter // nil: no snapshots
	next  int         // the snapshot point: after this many events
	stale []staleAt   // the snapshots that differed, by step
}

// staleAt is a snapshot that differs from the timeline the deltas built
// after step i (0-based; the step after the last event is Finish).
type staleAt struct {
	i     int
	whole *timeline.Timeline
}

// newDriver returns a driver for eng and the stream of events to feed it.
// An engine with a batch mode (replayer) takes the whole trace at once:
// the stream is read to its end first, and the events it held are
// streamed again from memory. With snapshots, a snapshotter's whole
// timeline is compared at snapshot points and at the end (see snapshot); a
// batch then goes in pieces that end at those points, so that both modes
// take the same snapshots.
func newDriver(eng Engine, src Source, snapshots bool) (*driver, Source, error) {
	d := &driver{eng: eng, next: checkpointEvery}
	if s, ok := eng.(snapshotter); ok && snapshots && s.canSnapshot() {
		d.snap = s
	}
	r, ok := eng.(replayer)
	if !ok {
		return d, src, nil
	}
	evs, err := drain(src)
	if err != nil {
		return nil, nil, err
	}
	if err := d.replay(r, evs); !errors.Is(err, errNoBatch) {
		d.err, d.evs = err, len(evs)
		if d.batch == nil {
			d.batch = []*timeline.Timeline{}
		}
	} else {
		d.batch = nil
	}
	return d, SliceSource(evs), nil
}

// replay sends evs in batch mode, the end-of-stream rule included: whole,
// or with snapshots in pieces that end at snapshot points, each followed
// by a snapshot.
func (d *driver) replay(r replayer, evs []event.Event) error {
	for lo := 0; ; {
		hi, finish := len(evs), true
		if d.snap != nil {
			hi = min(hi, d.next)
			finish = hi < d.next // a point after the last event comes before Finish's
		}
		tls, err := r.Replay(evs[lo:hi], finish)
		d.batch = append(d.batch, tls...)
		if err != nil {
			return err
		}
		if n := len(d.batch); d.snap != nil && n > 0 && !d.snapshot(n-1, d.batch[n-1]) {
			d.batch = d.batch[:n-1] // the step fails as it would one by one
			return d.err
		}
		if finish {
			return nil
		}
		lo = hi
	}
}

// snapshot asks for the engine's whole timeline after step i, whose
// timeline the deltas built as built, and keeps it when the two differ.
// It reports false when the engine failed. Snapshots are taken after the
// checkpointEvery-th event, then every as many events as the timeline
// held items at the last snapshot (at least checkpointEvery), so that they
// cost O(1) per event in all, and after Finish.
func (d *driver) snapshot(i int, built *timeline.Timeline) bool {
	d.next = i + 1 + max(checkpointEvery, len(built.Items))
	whole, err := d.snap.snapshot()
	if err != nil {
		d.err = err
		return false
	}
	if !sameTimeline(built, whole) {
		d.stale = append(d.stale, staleAt{i, whole})
	}
	return true
}

// sameTimeline reports whether two timelines hold the same items (every
// JSON member, Item.Same) and diagnostics.
func sameTimeline(a, b *timeline.Timeline) bool {
	return slices.Equal(a.Diagnostics, b.Diagnostics) &&
		slices.EqualFunc(a.Items, b.Items, func(x, y *timeline.Item) bool { return x.Same(y) })
}

// staleWhole returns the snapshot taken after the step just applied when
// it differs from the timeline the deltas built, else nil.
func (d *driver) staleWhole() *timeline.Timeline {
	if len(d.stale) == 0 || d.stale[0].i != d.n-1 {
		return nil
	}
	whole := d.stale[0].whole
	d.stale = d.stale[1:]
	return whole
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
	if d.snap != nil && (ev == nil || d.n == d.next) && !d.snapshot(i, d.last) {
		return nil, false
	}
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
	d, src, err := newDriver(eng, src, false)
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
