package store

import (
	"io"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// LogWriter writes a persisted log to an io.Writer as the events arrive,
// as Persist does but without holding the trace: it keeps only what a live
// app keeps open (a text segment, held or blocked records, open
// lifecycles) and the last line, which the torn fault may cut. Memory
// follows the live state, not the trace. It does not work out
// Persisted.Expected; Persist does.
type LogWriter struct {
	w   *writer
	dst io.Writer
	n   int // events handled
	err error
}

// NewLogWriter starts a log on dst. total is the number of events to
// come, which the kill fault needs to pick where the app dies; with the
// kill fault and total 0 the app never dies.
func NewLogWriter(dst io.Writer, opts Options, total int) *LogWriter {
	w := newWriter(opts, total)
	w.stream = true
	return &LogWriter{w: w, dst: dst}
}

// Event writes the records of the next event. After the kill point it
// does nothing.
func (l *LogWriter) Event(ev *event.Event) error {
	if l.err != nil || l.killed() {
		return l.err
	}
	l.w.lastT = ev.T
	l.w.event(l.n, ev)
	l.n++
	return l.flush(false)
}

func (l *LogWriter) killed() bool { return l.w.killAt >= 0 && l.n >= l.w.killAt }

// Close writes what a clean shutdown flushes (unless the kill fault ended
// the app), applies the torn tail, and writes the last line.
func (l *LogWriter) Close() error {
	if l.err != nil {
		return l.err
	}
	if !l.killed() {
		l.w.flushAll()
	}
	l.w.tear()
	return l.flush(true)
}

// flush writes every line but the last (the torn fault may still cut
// it), or everything at the end.
func (l *LogWriter) flush(all bool) error {
	w := l.w
	keep := 0
	if n := len(w.lines); n > 0 && !all {
		keep = w.out.Len() - w.lines[n-1].start
	}
	if _, err := l.dst.Write(w.out.Bytes()[:w.out.Len()-keep]); err != nil {
		l.err = err
		return err
	}
	rest := w.out.Bytes()[w.out.Len()-keep:]
	copy(w.out.Bytes(), rest)
	w.out.Truncate(keep)
	w.lines = w.lines[:0]
	if keep > 0 {
		w.lines = append(w.lines, line{start: 0, end: keep})
	}
	return nil
}

// Stream writes to dst the persisted log of the events next yields (it
// returns io.EOF after the last), while they are read: it holds only what
// a LogWriter holds, not the trace. The kill fault needs the number of
// events, so with it the events are read whole first. An error from next
// is returned after the records of the events before it are written.
func Stream(dst io.Writer, next func(*event.Event) error, opts Options) error {
	total := 0
	if slices.Contains(opts.Faults, fault.Kill) {
		var evs []event.Event
		var ev event.Event
		for {
			if err := next(&ev); err == io.EOF {
				break
			} else if err != nil {
				return err
			}
			evs = append(evs, ev)
		}
		total, next = len(evs), sliceNext(evs)
	}
	lw := NewLogWriter(dst, opts, total)
	var ev event.Event
	for {
		err := next(&ev)
		if err == io.EOF {
			return lw.Close()
		}
		if err != nil {
			return err
		}
		if err := lw.Event(&ev); err != nil {
			return err
		}
	}
}

// sliceNext yields evs one by one, then io.EOF.
func sliceNext(evs []event.Event) func(*event.Event) error {
	return func(ev *event.Event) error {
		if len(evs) == 0 {
			return io.EOF
		}
		*ev, evs = evs[0], evs[1:]
		return nil
	}
}
