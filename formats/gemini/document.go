package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// lineAt is the 1-based line of a byte offset of the document, moved past
// the white space and commas that precede a value.
func (s *state) lineAt(off int64) int {
	o := int(min(max(off, 0), int64(len(s.data))))
	for o < len(s.data) && strings.IndexByte(" \t\r\n,", s.data[o]) >= 0 {
		o++
	}
	if o < s.lineOff || s.lineN == 0 {
		s.lineOff, s.lineN = 0, 1
	}
	s.lineN += bytes.Count(s.data[s.lineOff:o], []byte{'\n'})
	s.lineOff = o
	return s.lineN
}

// errStop ends the walk of a document that cannot be read further.
var errStop = errors.New("stop")

// syntaxProblem reports a decoding error at its line; the document cannot
// be read past it, so it returns errStop (or the strict error).
func (s *state) syntaxProblem(dec *json.Decoder, err error) error {
	if perr := s.syntaxProblemAt(dec, err); perr != nil {
		return perr
	}
	return errStop
}

// stop reports a problem after which the document cannot be walked.
func (s *state) stop(line int, reason string) error {
	if err := s.b.Problem(line, reason); err != nil {
		return err
	}
	return errStop
}

// syntaxProblemAt reports a decoding error at its line.
func (s *state) syntaxProblemAt(dec *json.Decoder, err error) error {
	off := dec.InputOffset()
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off = se.Offset
	}
	reason := "malformed JSON: " + err.Error()
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		reason = "truncated JSON document: the messages up to here were imported"
		off = int64(len(bytes.TrimRight(s.data, " \t\r\n")))
		if off > 0 {
			off-- // the last line, not the one after it
		}
		return s.b.Problem(bytes.Count(s.data[:off], []byte{'\n'})+1, reason)
	}
	return s.b.Problem(s.lineAt(off), reason)
}

// document walks the top-level object: metadata members go to the header,
// messages are mapped one at a time, so that a document torn in the middle
// still gives its first messages.
func (s *state) document() error {
	if !s.noFast && s.fastDocument() {
		return s.walkChecked()
	}
	dec := json.NewDecoder(bytes.NewReader(s.data))
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return s.b.Problem(0, "empty document")
		}
		return s.syntaxProblem(dec, err)
	}
	if tok != json.Delim('{') {
		return s.stop(1, "not a Gemini CLI recording: the document is not a JSON object")
	}
	sawMessages := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return s.syntaxProblem(dec, err)
		}
		key, _ := tok.(string)
		if key == "messages" {
			sawMessages = true
			if err := s.messages(dec); err != nil {
				return err
			}
			continue
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return s.syntaxProblem(dec, err)
		}
		s.metaMember(key, v)
	}
	if _, err := dec.Token(); err != nil {
		return s.syntaxProblem(dec, err)
	}
	if !sawMessages {
		return s.b.Problem(1, `no "messages" array`)
	}
	return nil
}

// metaMember keeps a top-level member other than messages in the header
// meta.
func (s *state) metaMember(key string, v json.RawMessage) {
	switch key {
	case "sessionId":
		s.meta["session_id"] = v
	case "projectHash":
		s.meta["project_hash"] = v
	case "startTime":
		s.meta["start_time"] = v
	case "lastUpdated":
		s.meta["last_updated"] = v
	case "summary", "kind", "directories":
		s.meta[key] = v
	default:
		s.meta["extra_"+key] = v
	}
}

// messages walks the messages array, mapping one message at a time.
func (s *state) messages(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return s.syntaxProblem(dec, err)
	}
	if tok != json.Delim('[') {
		return s.stop(s.lineAt(dec.InputOffset()), `"messages" is not an array`)
	}
	for dec.More() {
		line := s.lineAt(dec.InputOffset())
		var m message
		err := dec.Decode(&m)
		var te *json.UnmarshalTypeError
		if err != nil && !errors.As(err, &te) {
			return s.syntaxProblem(dec, err)
		}
		if err := s.decoded(line, &m, te); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return s.syntaxProblem(dec, err)
	}
	return nil
}

// decoded maps a message that decoded, or whose decoding hit te (a
// member, or the message itself, of an unexpected type).
func (s *state) decoded(line int, m *message, te *json.UnmarshalTypeError) error {
	if te != nil {
		if te.Field == "" {
			return s.b.Problem(line, "message is not a JSON object: got "+te.Value)
		}
		// One member has an unexpected type: map what decoded.
		if err := s.b.Problem(line, fmt.Sprintf("message member %q: unexpected JSON %s: left out", te.Field, te.Value)); err != nil {
			return err
		}
	}
	return s.message(line, m)
}
