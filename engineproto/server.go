package engineproto

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/jsonscan"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// MaxLine is the longest message line Serve accepts (64 MiB, line ending
// excluded). A longer line is refused before it is buffered whole.
const MaxLine = 64 << 20

// Engine is what Serve drives: the same three methods as harness.Engine.
type Engine interface {
	Apply(ev *event.Event)
	Finish()
	Timeline() *timeline.Timeline
}

// Failer is implemented by engines that can fail (a browser that crashed,
// a page that logged an error): after each event, finish, reset and
// reconstruct, Serve asks Failed, and answers a non-nil error with an
// error reply in place of the timeline.
type Failer interface {
	Failed() error
}

// Previewer is implemented by engines that act on runs of events rather
// than on each one alone: a real agent app (package agent) answers a run
// of tool_start events with one model response carrying every call, so
// it must know at the first start whether more follow. Serve hands it
// the events of each event or batch message, decoded, before applying
// them one by one; an engine that declares the batch capability gets a
// whole trace at once (docs/protocol.md).
type Previewer interface {
	Preview(evs []event.Event)
}

// Crasher is implemented by engines that can be killed mid-turn and
// resumed (a real agent app, package agent). Serve answers crash by
// calling Crash, then Failed, and replies with the whole timeline the
// resumed engine shows. Declare CapCrash in ServeOptions.Capabilities.
type Crasher interface {
	Crash()
}

// ServeOptions configure Serve.
type ServeOptions struct {
	// New makes a fresh engine (at init and on reset) for the meta tool
	// names toolsim sent.
	New func(metaTools []string) Engine
	// Reconstruct, when set, rebuilds an engine from a persisted log (the
	// reconstruct capability).
	Reconstruct func(log []byte, metaTools []string) (Engine, error)
	// Fields are the optional timeline fields declared; nil means all.
	Fields []string
	// Features, NoGrouping, Contract, Documented and ByDesign are declared
	// in init_ok as features, grouping (false when set), contract,
	// documented and by_design;
	// Capabilities are declared beside the ones Serve implements (for
	// example CapScreen).
	Features     []string
	NoGrouping   bool
	Contract     []string
	Documented   []string
	ByDesign     []string
	Capabilities []string
	// Full answers with whole timelines only, without declaring the delta
	// capability. Otherwise event, batch and finish are answered with
	// deltas, which rely on the engine's items keeping the Version
	// contract of package timeline (a changed item gets a new version) and
	// on its diagnostics only growing until the next reset.
	Full bool
	// FlushEach writes each timeline reply of a batch as soon as it is
	// made, not the batch's replies together: for slow engines (a real
	// agent app takes a second per event), whose batches would otherwise
	// outlast toolsim's timeout, which counts per reply.
	FlushEach bool
}

// server is the engine's side of the protocol.
type server struct {
	opts    ServeOptions
	meta    []string
	eng     Engine // nil until a successful init
	refused string // why the last init was refused
	w       *bufio.Writer
	buf     []byte
	line    int
	long    []byte // a line gathered across buffer reads
	msg     Message
	members []jsonscan.Member
	evdec   event.LineDecoder
	evs     []event.Event
	sent    []sentItem // the items of the last timeline reply
	diags   int        // and how many diagnostics it had
}

// sentItem is what the last reply said about one top-level item.
type sentItem struct {
	it      *timeline.Item
	version uint64
}

// errLineTooLong stops Serve: the rest of the line cannot be a message.
var errLineTooLong = errors.New("line too long")

// Serve speaks the protocol as an engine: it answers each message read
// from r on w, until r ends. It is how `toolsim engine` serves the
// reference engine, and how tests run engines as separate processes. A
// line over MaxLine is answered with an error reply and ends Serve with an
// error, after reading at most MaxLine bytes of it.
func Serve(r io.Reader, w io.Writer, opts ServeOptions) error {
	if opts.Fields == nil {
		opts.Fields = AllFields
	}
	s := &server{opts: opts, w: bufio.NewWriterSize(w, 1<<16)}
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := s.next(br)
		if errors.Is(err, errLineTooLong) {
			s.errorf(0, "line %d longer than %d bytes: a message must fit on one line", s.line, MaxLine)
			s.w.Flush()
			return fmt.Errorf("line %d longer than %d bytes", s.line, MaxLine)
		}
		if len(bytes.TrimSpace(line)) > 0 {
			s.handle(line)
			if ferr := s.w.Flush(); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// next returns the next line (valid until the next call), refusing one
// longer than MaxLine as soon as it has read that much of it.
func (s *server) next(br *bufio.Reader) ([]byte, error) {
	s.line++
	s.long = s.long[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		if tooLong(s.long, chunk, err) {
			return nil, errLineTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			s.gather(chunk)
			continue
		}
		if len(s.long) == 0 {
			return chunk, err
		}
		s.gather(chunk)
		return s.long, err
	}
}

// gather appends chunk to the long line, never growing it past the limit
// (plus a line ending).
func (s *server) gather(chunk []byte) {
	if need := len(s.long) + len(chunk); need > cap(s.long) {
		s.long = slices.Grow(s.long, min(max(2*cap(s.long), need), MaxLine+2)-len(s.long))
	}
	s.long = append(s.long, chunk...)
}

// tooLong reports whether the line gathered so far (long, then chunk,
// which ReadSlice returned with err) holds more than MaxLine bytes besides
// its line ending.
func tooLong(long, chunk []byte, err error) bool {
	total := len(long) + len(chunk)
	switch {
	case errors.Is(err, bufio.ErrBufferFull):
		return total > MaxLine+1 // the last byte may be the CR of a CR LF
	case err != nil:
		return total > MaxLine
	}
	content := total - 1
	if len(chunk) >= 2 && chunk[len(chunk)-2] == '\r' || len(chunk) == 1 && len(long) > 0 && long[len(long)-1] == '\r' {
		content--
	}
	return content > MaxLine
}

func (s *server) errorf(id int64, format string, args ...any) {
	s.buf = strconvID(append(s.buf[:0], `{"type":"error","id":`...), id)
	s.buf = appendStr(append(s.buf, `,"message":`...), fmt.Sprintf(format, args...))
	s.w.Write(append(s.buf, "}\n"...))
}

func strconvID(dst []byte, id int64) []byte { return fmt.Appendf(dst, "%d", id) }

func (s *server) handle(line []byte) {
	m := &s.msg
	var err error
	s.members, err = decodeMessage(line, m, s.members)
	switch {
	case errors.As(err, new(*syntaxError)):
		s.errorf(0, "line %d: not JSON: %v", s.line, err)
		return
	case err != nil:
		s.errorf(m.ID, "line %d: %v", s.line, err)
		return
	case m.ID == 0:
		s.errorf(0, `line %d: member "id" is missing (every message has a positive integer id)`, s.line)
		return
	case m.Type == "":
		s.errorf(m.ID, `line %d: member "type" is missing`, s.line)
		return
	case m.Type != TypeInit && s.eng == nil && s.refused != "":
		s.errorf(m.ID, "no session: init was refused (%s); send an init with protocol %q first", s.refused, Version)
		return
	case m.Type != TypeInit && s.eng == nil:
		s.errorf(m.ID, "no session: the first message must be init, got %q", m.Type)
		return
	}
	s.dispatch(m)
}

func (s *server) dispatch(m *Message) {
	switch m.Type {
	case TypeInit:
		s.init(m)
	case TypeEvent:
		if m.Event == nil {
			s.errorf(m.ID, `member "event" is missing`)
			return
		}
		s.apply(m.ID, "event", []json.RawMessage{m.Event})
	case TypeBatch:
		if m.Events == nil {
			s.errorf(m.ID, `member "events" is missing`)
			return
		}
		if !s.apply(m.ID, "events", m.Events) {
			return // answered with the error alone: nothing was applied
		}
		if m.Finish {
			s.finish(m.ID, len(m.Events))
		}
	case TypeFinish:
		s.finish(m.ID, 0)
	case TypeReset:
		s.eng = s.opts.New(s.meta)
		if !s.failed(m.ID) {
			s.timeline(m.ID, 0, false)
		}
	case TypeRender:
		s.render(m)
	case TypeReconstruct:
		s.reconstruct(m)
	case TypeSnapshot:
		s.snapshot(m.ID)
	case TypeCrash:
		s.crash(m.ID)
	default:
		s.errorf(m.ID, "unknown message type %q (want init, event, batch, finish, reset, render, reconstruct, snapshot or crash)", m.Type)
	}
}

func (s *server) init(m *Message) {
	if m.Protocol != Version {
		s.eng, s.refused = nil, fmt.Sprintf("protocol %q", m.Protocol)
		s.errorf(m.ID, "protocol %q not supported; this engine speaks %s", m.Protocol, Version)
		return
	}
	if m.Options != nil {
		s.meta = m.Options.MetaTools
	}
	s.eng, s.refused = s.opts.New(s.meta), ""
	s.sent, s.diags = s.sent[:0], 0
	caps := []string{CapTimeline, CapRender, CapBatch}
	if s.opts.Reconstruct != nil {
		caps = append(caps, CapReconstruct)
	}
	if !s.opts.Full {
		caps = append(caps, CapDelta)
	}
	caps = append(append(caps, CapSnapshot), s.opts.Capabilities...)
	if s.failed(m.ID) {
		return
	}
	s.buf = strconvID(append(s.buf[:0], `{"type":"init_ok","id":`...), m.ID)
	s.buf = appendStr(append(s.buf, `,"protocol":`...), Version)
	s.buf = appendStrs(append(s.buf, `,"capabilities":`...), caps)
	s.buf = appendStrs(append(s.buf, `,"fields":`...), s.opts.Fields)
	s.buf = s.appendDeclared(s.buf)
	s.w.Write(append(s.buf, "}\n"...))
}

// appendDeclared appends the optional init_ok members ServeOptions set.
func (s *server) appendDeclared(dst []byte) []byte {
	if s.opts.Features != nil {
		dst = appendStrs(append(dst, `,"features":`...), s.opts.Features)
	}
	if s.opts.NoGrouping {
		dst = append(dst, `,"grouping":false`...)
	}
	if s.opts.Contract != nil {
		dst = appendStrs(append(dst, `,"contract":`...), s.opts.Contract)
	}
	if s.opts.Documented != nil {
		dst = appendStrs(append(dst, `,"documented":`...), s.opts.Documented)
	}
	if s.opts.ByDesign != nil {
		dst = appendStrs(append(dst, `,"by_design":`...), s.opts.ByDesign)
	}
	return dst
}

// failed answers message id with an error reply when the engine reports a
// failure (Failer), and reports whether it did.
func (s *server) failed(id int64) bool {
	f, ok := s.eng.(Failer)
	if !ok {
		return false
	}
	if err := f.Failed(); err != nil {
		s.errorf(id, "%v", err)
		return true
	}
	return false
}

// apply decodes every event first (all or nothing), then applies each and
// answers with a timeline per event. It reports false when an event did not
// decode (the error reply is written).
func (s *server) apply(id int64, member string, raws []json.RawMessage) bool {
	s.evs = s.evs[:0]
	for i, raw := range raws {
		s.evs = append(s.evs, event.Event{})
		if err := s.evdec.Decode(raw, &s.evs[i]); err != nil {
			where := member
			if member == "events" {
				where = fmt.Sprintf("events[%d]", i)
			}
			s.errorf(id, "%s: %s", where, eventError(err))
			return false
		}
	}
	if p, ok := s.eng.(Previewer); ok {
		p.Preview(s.evs)
	}
	for i := range s.evs {
		s.eng.Apply(&s.evs[i])
		if s.failed(id) {
			return false
		}
		s.timeline(id, i, true)
	}
	return true
}

// eventError words an event decoding error without its "trace:" prefix.
func eventError(err error) string {
	var de *event.DecodeError
	if !errors.As(err, &de) {
		return err.Error()
	}
	if de.Field != "" {
		return fmt.Sprintf("field %q: %s", de.Field, de.Reason)
	}
	return de.Reason
}

func (s *server) render(m *Message) {
	width := m.Width
	if width == 0 {
		width = 80
	}
	text := render.Render(s.eng.Timeline(), render.Options{Width: max(width, 10)})
	s.buf = strconvID(append(s.buf[:0], `{"type":"rendered","id":`...), m.ID)
	s.buf = appendStr(append(s.buf, `,"text":`...), text)
	s.w.Write(append(s.buf, "}\n"...))
}

func (s *server) reconstruct(m *Message) {
	if s.opts.Reconstruct == nil {
		s.errorf(m.ID, "this engine has no reconstruct capability")
		return
	}
	eng, err := s.opts.Reconstruct([]byte(m.Log), s.meta)
	if err != nil {
		s.errorf(m.ID, "reconstruct: %v", err)
		return
	}
	s.eng = eng
	if !s.failed(m.ID) {
		s.timeline(m.ID, 0, false)
	}
}

// crash kills and resumes a Crasher and answers with its whole timeline,
// or with its failure.
func (s *server) crash(id int64) {
	c, ok := s.eng.(Crasher)
	if !ok {
		s.errorf(id, "this engine has no crash capability")
		return
	}
	c.Crash()
	if !s.failed(id) {
		s.timeline(id, 0, false)
	}
}

// finish applies the end-of-stream rule and answers with its timeline
// (index in a batch), or with the engine's failure.
func (s *server) finish(id int64, index int) {
	s.eng.Finish()
	if !s.failed(id) {
		s.timeline(id, index, true)
	}
}
