package opencodeexport

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// document is a decoded export: its session and its messages, each with
// the line it starts on. cut, when set, says where and how the input ends
// too soon: the messages before it are kept (a file still being written,
// or cut by a crash).
type document struct {
	info     sessionInfo
	messages []message
	cut      *cutShort
}

// cutShort is where an export ends too soon.
type cutShort struct {
	line int
	what string
}

// message is one `{info, parts}` of the export.
type message struct {
	line  int
	Info  messageInfo `json:"info"`
	Parts []part      `json:"parts"`
}

// messageInfo is what the importer reads of a message's info.
type messageInfo struct {
	ID       string `json:"id"`
	Role     string `json:"role"`
	ParentID string `json:"parentID"`
	Time     struct {
		Created   int64  `json:"created"`
		Completed *int64 `json:"completed"`
	} `json:"time"`
	Finish string        `json:"finish"`
	Error  *messageError `json:"error"`
}

// messageError is an assistant message's error (MessageAbortedError,
// APIError, ...).
type messageError struct {
	Name string `json:"name"`
	Data struct {
		Message string `json:"message"`
	} `json:"data"`
}

// aborted is the error of a message the user cancelled.
const aborted = "MessageAbortedError"

// part is one part of a message: text, reasoning, a tool call, or a part
// the importer does not map (step-start, step-finish, patch, ...).
type part struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	Synthetic bool   `json:"synthetic"`
	Time      *struct {
		Start int64 `json:"start"`
	} `json:"time"`
	Tool   string     `json:"tool"`
	CallID string     `json:"callID"`
	State  *toolState `json:"state"`
}

// toolState is a tool part's state: pending, running, completed or error.
type toolState struct {
	Status   string          `json:"status"`
	Input    json.RawMessage `json:"input"`
	Output   string          `json:"output"`
	Error    string          `json:"error"`
	Metadata struct {
		Interrupted bool `json:"interrupted"`
	} `json:"metadata"`
	Time struct {
		Start int64 `json:"start"`
		End   int64 `json:"end"`
	} `json:"time"`
}

// decode reads the export: a JSON object with an "info" object and a
// "messages" array, each message decoded on its own so that an error
// names the line it starts on.
func decode(data []byte) (*document, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("line 1: not an opencode export: want a JSON object")
	}
	doc := &document{}
	seen := false
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", lineAt(data, dec.InputOffset()), cut(err))
		}
		switch key, _ := tok.(string); key {
		case "info":
			if err := dec.Decode(&doc.info); err != nil {
				return nil, fmt.Errorf("line %d: field info: %w", lineAt(data, dec.InputOffset()), err)
			}
		case "messages":
			seen = true
			if err := doc.decodeMessages(dec, data); err != nil || doc.cut != nil {
				return doc, err
			}
		default:
			var skip json.RawMessage
			if err := dec.Decode(&skip); err != nil {
				return nil, fmt.Errorf("line %d: field %q: %w", lineAt(data, dec.InputOffset()), key, err)
			}
		}
	}
	if _, err := dec.Token(); err != nil { // the object's }
		if isCut(err) && seen {
			doc.cut = &cutShort{lineAt(data, int64(len(data))), "the export's object is not closed"}
			return doc, nil
		}
		return nil, fmt.Errorf("line %d: the export's object is not closed: %w", lineAt(data, dec.InputOffset()), cut(err))
	}
	if rest := bytes.TrimSpace(data[dec.InputOffset():]); len(rest) > 0 {
		return nil, fmt.Errorf("line %d: data after the export's object", lineAt(data, dec.InputOffset()+int64(leadingSpace(data[dec.InputOffset():]))))
	}
	if !seen {
		return nil, errors.New("line 1: not an opencode export: no messages array")
	}
	return doc, nil
}

// decodeMessages reads the messages array, element by element.
func (doc *document) decodeMessages(dec *json.Decoder, data []byte) error {
	if tok, err := dec.Token(); err != nil || tok != json.Delim('[') {
		return fmt.Errorf("line %d: field messages: want an array", lineAt(data, dec.InputOffset()))
	}
	for dec.More() {
		line := lineAt(data, dec.InputOffset()+int64(leadingSpace(data[dec.InputOffset():])))
		var m message
		if err := dec.Decode(&m); isCut(err) {
			doc.cut = &cutShort{line, fmt.Sprintf("message %d is cut short", len(doc.messages)+1)}
			return nil
		} else if err != nil {
			return fmt.Errorf("line %d: message %d: %w", line, len(doc.messages)+1, err)
		}
		m.line = line
		doc.messages = append(doc.messages, m)
	}
	if _, err := dec.Token(); isCut(err) { // ]
		doc.cut = &cutShort{lineAt(data, int64(len(data))), "the messages array is not closed"}
	} else if err != nil {
		return fmt.Errorf("line %d: field messages: %w", lineAt(data, dec.InputOffset()), err)
	}
	return nil
}

// cut names an input that ends too soon (io.EOF from the decoder).
func cut(err error) error {
	if isCut(err) {
		return fmt.Errorf("the export is cut short: %w", io.ErrUnexpectedEOF)
	}
	return err
}

// isCut reports whether err is the decoder meeting the input's end.
func isCut(err error) bool { return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) }

// leadingSpace counts the separators before the next value.
func leadingSpace(b []byte) int {
	n := 0
	for n < len(b) && (b[n] == ' ' || b[n] == '\n' || b[n] == '\r' || b[n] == '\t' || b[n] == ',') {
		n++
	}
	return n
}

// lineAt is the 1-based line of byte offset off in data.
func lineAt(data []byte, off int64) int {
	off = min(off, int64(len(data)))
	return 1 + bytes.Count(data[:off], []byte{'\n'})
}
