package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/render"
)

func (c *cli) engineCmd(args []string) int {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim engine\n\nServes the reference engine over the toolsim-engine/1 protocol on stdin and\nstdout (docs/protocol.md): the engine that --engine 'toolsim engine' drives,\nand a working example of the protocol. It exits when its input ends.")
	}
	if err := fs.Parse(args); err != nil {
		return helpOrUsage(err)
	}
	if err := serveEngine(c.stdin, c.stdout); err != nil {
		fmt.Fprintf(c.stderr, "toolsim engine: %v\n", err)
		return exitFail
	}
	return exitOK
}

// server is the reference engine's side of the protocol.
type server struct {
	eng  *engine.Engine
	opts engine.Options
	w    *bufio.Writer
}

// serveEngine answers messages until the input ends.
func serveEngine(r io.Reader, w io.Writer) error {
	s := &server{eng: engine.New(engine.Options{}), w: bufio.NewWriterSize(w, 1<<16)}
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

func (s *server) reply(r engineproto.Reply) {
	data, err := json.Marshal(r)
	if err != nil {
		data, _ = json.Marshal(engineproto.Reply{Type: engineproto.TypeError, ID: r.ID, Message: err.Error()})
	}
	s.w.Write(data)
	s.w.WriteByte('\n')
}

func (s *server) timeline(id int64, index int) {
	tl, err := json.Marshal(s.eng.Timeline())
	if err != nil {
		s.reply(engineproto.Reply{Type: engineproto.TypeError, ID: id, Message: err.Error()})
		return
	}
	s.reply(engineproto.Reply{Type: engineproto.TypeTimeline, ID: id, Index: index, Timeline: tl})
}

func (s *server) handle(line []byte) {
	var m engineproto.Message
	if err := json.Unmarshal(line, &m); err != nil {
		s.reply(engineproto.Reply{Type: engineproto.TypeError, Message: "not a message: " + err.Error()})
		return
	}
	switch m.Type {
	case engineproto.TypeInit:
		s.init(&m)
	case engineproto.TypeEvent:
		s.batch(m.ID, []json.RawMessage{m.Event}, false)
	case engineproto.TypeBatch:
		s.batch(m.ID, m.Events, m.Finish)
	case engineproto.TypeFinish:
		s.eng.Finish()
		s.timeline(m.ID, 0)
	case engineproto.TypeReset:
		s.eng = engine.New(s.opts)
		s.timeline(m.ID, 0)
	case engineproto.TypeRender:
		s.reply(engineproto.Reply{Type: engineproto.TypeRendered, ID: m.ID, Text: render.Render(s.eng.Timeline(), render.Options{Width: max(m.Width, 10)})})
	case engineproto.TypeReconstruct:
		s.reconstruct(&m)
	default:
		s.reply(engineproto.Reply{Type: engineproto.TypeError, ID: m.ID, Message: fmt.Sprintf("unknown message type %q", m.Type)})
	}
}

func (s *server) init(m *engineproto.Message) {
	if m.Protocol != engineproto.Version {
		s.reply(engineproto.Reply{Type: engineproto.TypeError, ID: m.ID, Message: fmt.Sprintf("protocol %q not supported; this engine speaks %s", m.Protocol, engineproto.Version)})
		return
	}
	if m.Options != nil && m.Options.MetaTools != nil {
		s.opts.MetaTools = m.Options.MetaTools
	}
	s.eng = engine.New(s.opts)
	s.reply(engineproto.Reply{Type: engineproto.TypeInitOK, ID: m.ID, Protocol: engineproto.Version,
		Capabilities: []string{engineproto.CapTimeline, engineproto.CapRender, engineproto.CapReconstruct, engineproto.CapBatch},
		Fields:       engineproto.AllFields})
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
		s.reply(engineproto.Reply{Type: engineproto.TypeError, ID: id, Message: fmt.Sprintf("events do not decode: %v", err)})
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

func (s *server) reconstruct(m *engineproto.Message) {
	res, err := rebuild.Rebuild(bytes.NewReader([]byte(m.Log)), rebuild.Options{Engine: s.opts})
	if err != nil {
		s.reply(engineproto.Reply{Type: engineproto.TypeError, ID: m.ID, Message: err.Error()})
		return
	}
	s.eng = res.Engine
	s.timeline(m.ID, 0)
}
