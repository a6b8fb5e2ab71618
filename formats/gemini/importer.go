package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// Importer imports the gemini-cli format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "gemini-cli" }

// Source is the header's source member.
const Source = "gemini-cli"

// Detect implements importer.Importer. It accepts the two recording
// shapes. A JSON document: the head is the start of one JSON object whose
// top-level members include a string "sessionId" followed, at some point,
// by a "messages" array; the members are read with a streaming decoder, so
// a document longer than the head is recognised from its start. A JSON
// Lines session (session-*.jsonl): the first non-blank line is a complete
// JSON object with string "sessionId" and "projectHash" and no "messages".
func (Importer) Detect(head []byte) bool {
	if line, _ := firstLine(head); isSessionHead(line) {
		return true
	}
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
		key, _ := tok.(string)
		switch key {
		case "messages":
			tok, err := dec.Token()
			return err == nil && tok == json.Delim('[') && session
		case "sessionId":
			var id string
			if dec.Decode(&id) != nil {
				return false
			}
			session = true
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
	return importData(data, opts, true)
}

// importData imports a whole input; fast lets a well-formed document be
// walked by jsonscan (walkChecked) instead of the streaming decoder, with
// the same result (FuzzFastWalk).
func importData(data []byte, opts importer.Options, fast bool) (*importer.Result, error) {
	s := &state{
		noFast:  !fast,
		b:       importer.NewBuilder(Source, opts),
		data:    data,
		meta:    map[string]any{"format": "gemini-cli"},
		ignored: map[string]int{},
	}
	walk := s.document
	if line, _ := firstLine(data); isSessionHead(line) {
		s.meta["format"] = "gemini-cli-jsonl"
		walk = s.session
	}
	if err := walk(); err != nil && err != errStop {
		return nil, err
	}
	if s.cancelled {
		s.closeTurn() // the cancel ended the turn
	}
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	return s.b.Result(), nil
}

// state is one import in progress.
type state struct {
	b       *importer.Builder
	data    []byte
	meta    map[string]any
	ignored map[string]int

	asstOpen  bool
	cancelled bool // the open turn was cancelled
	genID     int

	// lineOff, lineN: a byte offset of data and its 1-based line, where
	// lineAt last counted (offsets only grow as the walk goes on).
	lineOff, lineN int
	top            []jsonscan.Member // the checked document's members (fastDocument)
	noFast         bool              // always walk with the streaming decoder
}

// ignore counts a record kind that maps to nothing.
func (s *state) ignore(what string) { s.ignored[what]++ }
