package tui

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"

	tea "charm.land/bubbletea/v2"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/internal/lines"
)

// Feed reads a live input — a canonical trace, or any format an importer
// reads, such as `claude -p --output-format stream-json` — and hands its
// events to a live [Model] as [EventsMsg] batches, as they arrive.
//
// A canonical trace is decoded line by line. Other formats are imported
// again, whole, each time lines arrive (an importer may only know what a
// line means once later lines came), and the model gets the events from
// the first one that changed.
type Feed struct {
	From string // format name; "" detects it from the content
	Name string // the input's name in messages; "stdin" if empty
	// Strict makes an event of an unknown kind in a canonical trace an
	// invalid line; by default it is kept and its warning is shown as a
	// problem (the first event of each unknown kind).
	Strict bool
	// Clock stamps each line's arrival in ms, the clock of formats without
	// timestamps (as `toolsim record` does). Nil stamps lines 1 ms apart.
	Clock func() int64
}

// Run reads r to its end, calling send with a batch whenever it has read
// all that had arrived. The last batch has Done set, and Err when the
// input could not be read or understood.
func (f *Feed) Run(r io.Reader, send func(tea.Msg)) {
	st := &feedState{feed: f, send: send, name: f.Name}
	if st.name == "" {
		st.name = "stdin"
	}
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for n := 1; ; n++ {
		var err error
		line, err = lines.ReadLine(br, event.DefaultMaxLine, line[:0])
		if errors.Is(err, lines.ErrTooLong) {
			st.finish(fmt.Errorf("line %d: longer than the %d-byte line limit: stopped reading", n, event.DefaultMaxLine))
			return
		}
		if len(line) > 0 {
			st.add(line)
		}
		if err != nil {
			st.finish(err)
			return
		}
		if br.Buffered() == 0 {
			st.flush(false)
		}
	}
}

// feedState is one run of a Feed.
type feedState struct {
	feed *Feed
	send func(tea.Msg)
	name string

	raw    bytes.Buffer // every byte read
	stamps []int64      // arrival of each line
	im     importer.Importer

	queue     *lineQueue    // canonical: lines not yet decoded
	rd        *event.Reader // canonical: the decoder
	sent      []event.Event // what the model has
	probs     []string      // problems so far
	sentProbs int           // how many problems the model has
	fatal     error         // the input cannot be read as a trace
	badLines  int           // canonical lines that did not decode
	firstBad  error         // the first of them
}

func (st *feedState) add(line []byte) {
	st.raw.Write(line)
	t := int64(len(st.stamps))
	if st.feed.Clock != nil {
		t = st.feed.Clock()
	}
	st.stamps = append(st.stamps, t)
	if st.queue != nil {
		st.queue.buf = append(st.queue.buf, line...)
	}
}

// flush delivers what arrived; final says the input ended.
func (st *feedState) flush(final bool) {
	if st.fatal != nil || !st.detect(final) {
		return
	}
	if st.rd != nil {
		st.decode()
		return
	}
	res, err := st.im.Import(bytes.NewReader(st.raw.Bytes()), importer.Options{Name: st.name, Stamps: st.stamps})
	if err != nil {
		if final {
			st.fatal = fmt.Errorf("import %s as %s: %w", st.name, st.im.Name(), err)
		}
		return
	}
	st.probs = st.probs[:0]
	for _, p := range res.Problems {
		st.probs = append(st.probs, p.String())
	}
	st.deliver(res.Events)
}

// detect picks the format once there is enough to tell, and reports
// whether there is one. A format other than the canonical one is detected
// again while less than formats.HeadSize has arrived.
func (st *feedState) detect(final bool) bool {
	if st.rd != nil || (st.im != nil && st.raw.Len() >= formats.HeadSize) {
		return true
	}
	head := st.raw.Bytes()[:min(st.raw.Len(), formats.HeadSize)]
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")) // a byte order mark is no format's
	if len(bytes.TrimSpace(head)) == 0 {
		return false
	}
	im, err := formats.Pick(head, st.feed.From)
	if err != nil && st.feed.From == "" && !final && st.raw.Len() < formats.HeadSize {
		return st.im != nil // not yet: more may come
	}
	if err != nil {
		st.fatal = fmt.Errorf("%s: %w", st.name, err)
		return false
	}
	st.im = im
	if st.im != nil && st.im.Name() == formats.Canonical {
		st.queue = &lineQueue{buf: bytes.Clone(st.raw.Bytes())}
		st.rd = event.NewReader(st.queue, event.ReaderOptions{Name: st.name, StrictKinds: st.feed.Strict,
			Warn: func(w *event.DecodeError) { st.probs = append(st.probs, "warning: "+w.Error()) }})
	}
	return st.im != nil
}

// decode reads the queued lines of a canonical trace.
func (st *feedState) decode() {
	evs := st.sent
	for {
		var ev event.Event
		err := st.rd.Next(&ev)
		if err == io.EOF {
			break
		}
		var de *event.DecodeError
		if errors.As(err, &de) {
			st.probs = append(st.probs, de.Error())
			if st.badLines++; st.firstBad == nil {
				st.firstBad = err
			}
			continue
		}
		if err != nil {
			st.fatal = err
			break
		}
		evs = append(evs, ev)
	}
	st.deliver(evs)
}

// deliver sends the events from the first one the model does not have.
func (st *feedState) deliver(evs []event.Event) {
	from := 0
	for from < len(st.sent) && from < len(evs) && reflect.DeepEqual(st.sent[from], evs[from]) {
		from++
	}
	if from == len(evs) && from == len(st.sent) && len(st.probs) == st.sentProbs {
		return
	}
	st.send(EventsMsg{From: from, Events: evs[from:], Problems: append([]string{}, st.probs...)})
	st.sent, st.sentProbs = evs, len(st.probs)
}

// finish flushes the rest and sends the last batch.
func (st *feedState) finish(err error) {
	st.flush(true)
	if !errors.Is(err, io.EOF) && st.fatal == nil {
		st.fatal = fmt.Errorf("read %s: %w", st.name, err)
	}
	if st.fatal == nil && len(bytes.TrimSpace(st.raw.Bytes())) == 0 {
		st.fatal = fmt.Errorf("%s: %w", st.name, event.ErrEmpty)
	}
	if st.fatal == nil && st.badLines > 0 {
		// Shown as problems while they came; the run still failed, as
		// `watch --plain` and `play` do at the first one.
		st.fatal = fmt.Errorf("invalid lines: %d (the first: %w)", st.badLines, st.firstBad)
	}
	st.send(EventsMsg{From: len(st.sent), Problems: append([]string{}, st.probs...), Done: true, Err: st.fatal})
}

// lineQueue is the canonical decoder's input: the lines read so far, and
// io.EOF when it has caught up (the decoder asks again later).
type lineQueue struct{ buf []byte }

// Read hands out queued bytes, and io.EOF when there are none.
func (q *lineQueue) Read(p []byte) (int, error) {
	if len(q.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, q.buf)
	q.buf = q.buf[n:]
	return n, nil
}
