package engineproto

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// Engine is what Serve drives: the same three methods as harness.Engine.
type Engine interface {
	Apply(ev *event.Event)
	Finish()
	Timeline() *timeline.Timeline
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
}

// server is the engine's side of the protocol.
type server struct {
	opts ServeOptions
	meta []string
	eng  Engine
	w    *bufio.Writer
	buf  []byte
}

// Serve speaks the protocol as an engine: it answers each message read
// from r on w, until r ends. It is how `toolsim engine` serves the
// reference engine, and how tests run engines as separate processes.
func Serve(r io.Reader, w io.Writer, opts ServeOptions) error {
	if opts.Fields == nil {
		opts.Fields = AllFields
	}
	s := &server{opts: opts, w: bufio.NewWriterSize(w, 1<<16)}
	s.eng = opts.New(nil)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
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

func (s *server) reply(r Reply) {
	data, err := json.Marshal(r)
	if err != nil {
		data, _ = json.Marshal(Reply{Type: TypeError, ID: r.ID, Message: err.Error()})
	}
	s.w.Write(data)
	s.w.WriteByte('\n')
}

func (s *server) errorf(id int64, format string, args ...any) {
	s.reply(Reply{Type: TypeError, ID: id, Message: fmt.Sprintf(format, args...)})
}

// timeline answers with the current timeline. The envelope is written by
// hand around the encoded timeline, so it is not validated twice.
func (s *server) timeline(id int64, index int) {
	tl, err := json.Marshal(s.eng.Timeline())
	if err != nil {
		s.errorf(id, "%v", err)
		return
	}
	s.buf = append(s.buf[:0], `{"type":"timeline","id":`...)
	s.buf = strconv.AppendInt(s.buf, id, 10)
	if index != 0 {
		s.buf = append(s.buf, `,"index":`...)
		s.buf = strconv.AppendInt(s.buf, int64(index), 10)
	}
	s.buf = append(append(append(s.buf, `,"timeline":`...), tl...), "}\n"...)
	s.w.Write(s.buf)
}

func (s *server) handle(line []byte) {
	var m Message
	if err := json.Unmarshal(line, &m); err != nil {
		s.errorf(0, "not a message: %v", err)
		return
	}
	switch m.Type {
	case TypeInit:
		s.init(&m)
	case TypeEvent:
		s.batch(m.ID, []json.RawMessage{m.Event}, false)
	case TypeBatch:
		s.batch(m.ID, m.Events, m.Finish)
	case TypeFinish:
		s.eng.Finish()
		s.timeline(m.ID, 0)
	case TypeReset:
		s.eng = s.opts.New(s.meta)
		s.timeline(m.ID, 0)
	case TypeRender:
		s.reply(Reply{Type: TypeRendered, ID: m.ID, Text: render.Render(s.eng.Timeline(), render.Options{Width: max(m.Width, 10)})})
	case TypeReconstruct:
		s.reconstruct(&m)
	default:
		s.errorf(m.ID, "unknown message type %q", m.Type)
	}
}

func (s *server) init(m *Message) {
	if m.Protocol != Version {
		s.errorf(m.ID, "protocol %q not supported; this engine speaks %s", m.Protocol, Version)
		return
	}
	if m.Options != nil {
		s.meta = m.Options.MetaTools
	}
	s.eng = s.opts.New(s.meta)
	caps := []string{CapTimeline, CapRender, CapBatch}
	if s.opts.Reconstruct != nil {
		caps = append(caps, CapReconstruct)
	}
	s.reply(Reply{Type: TypeInitOK, ID: m.ID, Protocol: Version, Capabilities: caps, Fields: s.opts.Fields})
}

// batch decodes events, applies each and answers with a timeline per event.
func (s *server) batch(id int64, raws []json.RawMessage, finish bool) {
	var buf bytes.Buffer
	for _, r := range raws {
		buf.Write(r)
		buf.WriteByte('\n')
	}
	_, evs, err := event.ReadAll(&buf, event.ReaderOptions{Name: fmt.Sprintf("message %d", id)})
	if err != nil || len(evs) != len(raws) {
		s.errorf(id, "events do not decode: %v", err)
		return
	}
	for i := range evs {
		s.eng.Apply(&evs[i])
		s.timeline(id, i)
	}
	if finish {
		s.eng.Finish()
		s.timeline(id, len(evs))
	}
}

func (s *server) reconstruct(m *Message) {
	if s.opts.Reconstruct == nil {
		s.errorf(m.ID, "this engine has no reconstruct capability")
		return
	}
	eng, err := s.opts.Reconstruct([]byte(m.Log), s.meta)
	if err != nil {
		s.errorf(m.ID, "%v", err)
		return
	}
	s.eng = eng
	s.timeline(m.ID, 0)
}
