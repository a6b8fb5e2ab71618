package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolsim/toolsim/importer"
)

// sessionRecord is one line of a session-*.jsonl recording: a message
// (a string "id"), a rewind ("$rewindTo"), a metadata patch ("$set"), or
// the metadata line (sessionId, projectHash, ...).
type sessionRecord struct {
	ID        *string         `json:"id"`
	RewindTo  *string         `json:"$rewindTo"`
	Set       json.RawMessage `json:"$set"`
	SessionID *string         `json:"sessionId"`
}

// kept is a message of the folded session and the line of its last write.
type kept struct {
	line int
	m    message
}

// isSessionHead reports whether line (the first non-blank line of a file)
// is the metadata line of a JSON Lines session: a complete JSON object with
// string sessionId and projectHash and no "messages" member.
func isSessionHead(line []byte) bool {
	var meta map[string]json.RawMessage
	if json.Unmarshal(line, &meta) != nil {
		return false
	}
	var id, hash string
	_, msgs := meta["messages"]
	return !msgs && json.Unmarshal(meta["sessionId"], &id) == nil && id != "" &&
		json.Unmarshal(meta["projectHash"], &hash) == nil
}

// firstLine is the first non-blank line of b and its 1-based number.
func firstLine(b []byte) ([]byte, int) {
	for n := 1; len(b) > 0; n++ {
		line, rest, _ := bytes.Cut(b, []byte{'\n'})
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return line, n
		}
		b = rest
	}
	return nil, 0
}

// session folds a JSON Lines recording as Gemini CLI does when it loads
// one — a message record replaces the earlier record of its id in place
// (or is appended), $rewindTo removes its message and every later one,
// $set patches the metadata — then maps the messages that remain, in
// order, each at the line of its last write.
func (s *state) session() error {
	var order []*kept
	byID := map[string]*kept{}
	err := importer.EachLine(bytes.NewReader(s.data), func(n int, line []byte) error {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			return nil
		}
		var rec sessionRecord
		if err := decodeRecord(line, &rec); err != nil {
			return s.b.Problem(n, fmt.Sprintf("malformed JSON: %v: skipped", err))
		}
		switch {
		case rec.RewindTo != nil:
			order = s.rewind(order, byID, *rec.RewindTo)
		case rec.ID != nil:
			return s.upsert(n, line, &order, byID)
		case rec.Set != nil:
			return s.setMeta(n, rec.Set)
		case rec.SessionID != nil:
			return s.setMeta(n, line)
		default:
			return s.b.Problem(n, "record is neither a message, a $rewindTo, a $set nor session metadata: skipped")
		}
		return nil
	}, func(n int) error {
		return s.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
	})
	if err != nil {
		return err
	}
	for _, k := range order {
		if err := s.message(k.line, &k.m); err != nil {
			return err
		}
	}
	return nil
}

// upsert reads a message record and puts it in place of the earlier
// record of its id, or at the end.
func (s *state) upsert(n int, line []byte, order *[]*kept, byID map[string]*kept) error {
	var m message
	if err := decodeMessage(line, &m); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return s.b.Problem(n, fmt.Sprintf("malformed message: %v: skipped", err))
		}
		if err := s.b.Problem(n, fmt.Sprintf("message member %q: unexpected JSON %s: left out", te.Field, te.Value)); err != nil {
			return err
		}
	}
	if k := byID[m.ID]; k != nil {
		k.line, k.m = n, m
		s.ignore("message rewritten")
		return nil
	}
	k := &kept{line: n, m: m}
	byID[m.ID] = k
	*order = append(*order, k)
	return nil
}

// rewind removes message id and every later one; an unknown id removes
// them all (as Gemini CLI does).
func (s *state) rewind(order []*kept, byID map[string]*kept, id string) []*kept {
	cut := 0
	for i, k := range order {
		if k.m.ID == id {
			cut = i
			break
		}
	}
	for _, k := range order[cut:] {
		delete(byID, k.m.ID)
		s.ignore("message rewound")
	}
	return order[:cut]
}

// setMeta merges a metadata object ($set, or the metadata line) into the
// header meta. A $set of "messages" (Gemini CLI's model history, rewritten
// at compression) is counted as ignored: the timeline keeps what was shown.
func (s *state) setMeta(n int, raw json.RawMessage) error {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(raw, &members); err != nil {
		return s.b.Problem(n, fmt.Sprintf("metadata is not a JSON object: %v: skipped", err))
	}
	for k, v := range members {
		if k == "messages" {
			s.ignore("$set messages")
			continue
		}
		s.metaMember(k, v)
	}
	return nil
}
