package sse

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

var zeroTime time.Time

// Dialect is one provider's event vocabulary on top of SSE framing.
type Dialect string

// The dialects the decoders understand.
const (
	Unknown         Dialect = ""
	Anthropic       Dialect = "anthropic"        // Anthropic Messages streaming
	OpenAIChat      Dialect = "openai-chat"      // OpenAI Chat Completions streaming
	OpenAIResponses Dialect = "openai-responses" // OpenAI Responses streaming
)

// decoder maps the events of one dialect.
type decoder interface {
	event(ev *Event) error
	end(last int) error // end of input; last is the last line of the last event
}

func newDecoder(d Dialect, t *Turn) (decoder, error) {
	switch d {
	case Anthropic:
		return &anthropicDecoder{t: t, blocks: map[int]*block{}}, nil
	case OpenAIChat:
		return &chatDecoder{t: t, calls: map[int]*chatCall{}, badChoice: map[int]bool{}}, nil
	case OpenAIResponses:
		return &responsesDecoder{t: t, items: map[string]*item{}}, nil
	}
	return nil, fmt.Errorf("sse: unknown dialect %q", d)
}

// Decode reads one SSE stream of dialect d from r and maps it through t:
// text and thinking deltas, tool calls when their arguments are complete,
// errors, and the response's end (turn_end unless calls await results).
// Problems (unknown event types, data that is not JSON, a stream cut off)
// go to t.B with their line numbers; known-but-irrelevant events are
// counted in t.Ignored. The error is a read error or a strict import's
// first problem.
func Decode(r io.Reader, d Dialect, t *Turn) error {
	dec, err := newDecoder(d, t)
	if err != nil {
		return err
	}
	last := 0 // the last line of the last event
	st, err := Parse(r, func(ev *Event) error {
		last = ev.EndLine
		var err error
		switch {
		case ev.HasData:
			err = dec.event(ev)
		case ev.Type == "": // an id/retry-only block: bookkeeping
			t.Ignore("block without data")
		default:
			err = t.Problem(ev.Line, "event %q has no data field: skipped", ev.Type)
		}
		for _, f := range ev.Unknown {
			if err != nil {
				return err
			}
			err = t.Problem(f.Line, "unknown SSE field %q: ignored", f.Name)
		}
		return err
	}, func(n int) error {
		return t.Problem(n, "line longer than the importer limit: skipped")
	})
	if err != nil {
		return err
	}
	if st.Comments > 0 {
		t.Ignored["comment"] += st.Comments
	}
	return dec.end(last)
}

// DecodeBytes is Decode on an in-memory stream.
func DecodeBytes(b []byte, d Dialect, t *Turn) error {
	return Decode(bytes.NewReader(b), d, t)
}

// unmarshal decodes ev's data into v, reporting data that is not JSON.
func unmarshal(t *Turn, ev *Event, v any) (ok bool, err error) {
	if jerr := json.Unmarshal(ev.Data, v); jerr != nil {
		return false, t.Problem(ev.DataLine, "data is not valid JSON (%v): skipped: %s", jerr, clip(ev.Data))
	}
	return true, nil
}

// eventType is the event's type: the "event:" field, else the data's
// "type". A disagreement between the two is reported; the data wins.
func eventType(t *Turn, ev *Event, dataType string) (string, error) {
	switch {
	case dataType == "":
		return ev.Type, nil
	case ev.Type != "" && ev.Type != dataType:
		return dataType, t.Problem(ev.Line, "event field %q disagrees with the data's type %q: using the data's", ev.Type, dataType)
	}
	return dataType, nil
}
