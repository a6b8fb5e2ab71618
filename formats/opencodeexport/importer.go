package opencodeexport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Importer imports `opencode export` JSON.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "opencode-export" }

// Source is the header's source member.
const Source = "opencode"

// sessionInfo is what the importer reads of the export's info object.
type sessionInfo struct {
	ID        string `json:"id"`
	Slug      string `json:"slug"`
	ProjectID string `json:"projectID"`
	Version   string `json:"version"`
}

// Detect implements importer.Importer: the head is the start of one JSON
// object whose "info" member is an object with a string slug and version
// (an opencode session), followed by a "messages" array.
func (Importer) Detect(head []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(head))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	session := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		switch key, _ := tok.(string); key {
		case "info":
			var info sessionInfo
			if dec.Decode(&info) != nil {
				return false
			}
			session = info.Slug != "" && info.Version != ""
		case "messages":
			tok, err := dec.Token()
			return err == nil && tok == json.Delim('[') && session
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return false
			}
		}
	}
	return false
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	data, err := importer.ReadDocument(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Source, err)
	}
	doc, err := decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Source, err)
	}
	s := &state{b: importer.NewBuilder(Source, opts), ignored: map[string]int{}}
	for i := range doc.messages {
		if err := s.message(&doc.messages[i]); err != nil {
			return nil, err
		}
	}
	if c := doc.cut; c != nil {
		if err := s.b.Problem(c.line, c.what+": the export ends there, the messages before it are imported"); err != nil {
			return nil, err
		}
	}
	s.emit()
	meta := map[string]any{"format": "opencode-export", "session": doc.info.ID, "version": doc.info.Version}
	if len(s.ignored) > 0 {
		meta["ignored"] = s.ignored
	}
	s.b.SetMeta(meta)
	return s.b.Result(), nil
}

// timed is an event at its source time, with its place in the export
// (ties keep it).
type timed struct {
	ms   int64
	ord  int
	line int
	ev   event.Event
}

// state is one import in progress: the events so far, unsorted.
type state struct {
	b       *importer.Builder
	evs     []timed
	ignored map[string]int
	// turn is the open assistant turn's user message id ("" when none is
	// open); open is whether an assistant turn is open.
	turn string
	open bool
	// last is the latest time of an event so far.
	last int64
}

// at adds an event at ms, from the message at line.
func (s *state) at(ms int64, line int, ev event.Event) {
	s.evs = append(s.evs, timed{ms: ms, ord: len(s.evs), line: line, ev: ev})
	s.last = max(s.last, ms)
}

// emit sorts the events by time, ties in the export's order, and hands
// them to the builder.
func (s *state) emit() {
	sort.SliceStable(s.evs, func(i, j int) bool { return s.evs[i].ms < s.evs[j].ms })
	for _, e := range s.evs {
		s.b.SetLine(e.line)
		s.b.Emit(s.b.Clock(time.UnixMilli(e.ms), true), e.ev)
	}
}
