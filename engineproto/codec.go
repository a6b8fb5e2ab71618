package engineproto

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// This file is the hand-written codec of messages and replies: one
// validating pass over a line (internal/jsonscan) splits its members, which
// are then decoded by name. Errors name the member and say what was
// expected, never in encoding/json's words.

// memberError is a member of a message or reply that does not decode.
type memberError struct {
	Member string
	Reason string
}

func (e *memberError) Error() string { return fmt.Sprintf("member %q: %s", e.Member, e.Reason) }

// syntaxError is a line that is not JSON at all.
type syntaxError struct{ msg string }

func (e *syntaxError) Error() string { return e.msg }

func want(member, what string, val []byte) *memberError {
	return &memberError{Member: member, Reason: fmt.Sprintf("want %s, got %s", what, jsonscan.Describe(val))}
}

// split checks line and returns its members; a key given twice is an
// error.
func split(line []byte, buf []jsonscan.Member) ([]jsonscan.Member, error) {
	members, serr := jsonscan.Object(line, buf[:0])
	if serr != nil {
		return members, &syntaxError{serr.Error()}
	}
	if t := jsonscan.SkipSpace(line, 0); line[t] != '{' {
		return members, fmt.Errorf("want a JSON object, got %s", jsonscan.Describe(line[t:]))
	}
	for i := range members {
		for j := range i {
			if string(members[j].Key) == string(members[i].Key) {
				k, _ := jsonscan.String(members[i].Key)
				return members, &memberError{Member: k, Reason: "appears twice"}
			}
		}
	}
	return members, nil
}

func isNull(val []byte) bool { return string(val) == "null" }

func str(member string, val []byte) (string, error) {
	if isNull(val) {
		return "", nil
	}
	s, ok := jsonscan.String(val)
	if !ok {
		return "", want(member, "a string", val)
	}
	return s, nil
}

func integer(member string, val []byte, min int64) (int64, error) {
	if isNull(val) {
		return 0, nil
	}
	n, err := strconv.ParseInt(string(val), 10, 64)
	if err != nil {
		if len(val) > 0 && (val[0] == '-' || val[0] >= '0' && val[0] <= '9') {
			return 0, &memberError{Member: member, Reason: fmt.Sprintf("want an integer, got %s", val)}
		}
		return 0, want(member, "an integer", val)
	}
	if n < min {
		return 0, &memberError{Member: member, Reason: fmt.Sprintf("must be at least %d, got %d", min, n)}
	}
	return n, nil
}

func boolean(member string, val []byte) (bool, error) {
	switch string(val) {
	case "true":
		return true, nil
	case "false", "null":
		return false, nil
	}
	return false, want(member, "a boolean", val)
}

func strList(member string, val []byte) ([]string, error) {
	if isNull(val) {
		return nil, nil
	}
	if len(val) == 0 || val[0] != '[' {
		return nil, want(member, "an array of strings", val)
	}
	elems, _ := jsonscan.Array(val, nil)
	out := make([]string, len(elems))
	for i, e := range elems {
		s, ok := jsonscan.String(e)
		if !ok {
			return nil, want(fmt.Sprintf("%s[%d]", member, i), "a string", e)
		}
		out[i] = s
	}
	return out, nil
}

func object(member string, val []byte) (json.RawMessage, error) {
	if isNull(val) {
		return nil, nil
	}
	if len(val) == 0 || val[0] != '{' {
		return nil, want(member, "an object", val)
	}
	return val, nil
}

// decodeMessage decodes one message line. The raw members of m (Event,
// Events) are slices of line. On error, m.ID holds the id when it decoded.
func decodeMessage(line []byte, m *Message, buf []jsonscan.Member) ([]jsonscan.Member, error) {
	*m = Message{}
	members, err := split(line, buf)
	if err != nil {
		return members, err
	}
	for _, mb := range members { // the id first, so that errors can carry it
		if string(mb.Key) == `"id"` {
			if m.ID, err = integer("id", mb.Val, 1); err != nil {
				m.ID = 0
				return members, err
			}
		}
	}
	for _, mb := range members {
		if err := m.member(mb); err != nil {
			return members, err
		}
	}
	return members, nil
}

func (m *Message) member(mb jsonscan.Member) error {
	var err error
	switch string(mb.Key) {
	case `"type"`:
		m.Type, err = str("type", mb.Val)
	case `"protocol"`:
		m.Protocol, err = str("protocol", mb.Val)
	case `"options"`:
		m.Options, err = decodeOptions(mb.Val)
	case `"event"`:
		m.Event, err = object("event", mb.Val)
	case `"events"`:
		m.Events, err = rawArray("events", mb.Val)
	case `"finish"`:
		m.Finish, err = boolean("finish", mb.Val)
	case `"width"`:
		var n int64
		n, err = integer("width", mb.Val, 0)
		m.Width = int(min(n, 1<<20))
	case `"log"`:
		m.Log, err = str("log", mb.Val)
	}
	return err
}

func rawArray(member string, val []byte) ([]json.RawMessage, error) {
	if isNull(val) {
		return nil, nil
	}
	if len(val) == 0 || val[0] != '[' {
		return nil, want(member, "an array", val)
	}
	return splitChecked(val, make([]json.RawMessage, 0, 16)), nil
}

// splitChecked appends the elements of an array that has already passed
// the syntax check (the whole line did), without checking it again.
func splitChecked(arr []byte, out []json.RawMessage) []json.RawMessage {
	depth, start, inString := 0, -1, false
	for i := 0; i < len(arr); i++ {
		c := arr[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
			continue
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
		}
		switch {
		case depth == 1 && c == '[' && start < 0 && i == jsonscan.SkipSpace(arr, 0):
			start = i + 1
		case depth == 1 && c == ',' || depth == 0 && c == ']':
			if elem := trimSpace(arr[start:i]); len(elem) > 0 {
				out = append(out, elem)
			}
			start = i + 1
		}
	}
	return out
}

func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && jsonscan.IsSpace(b[i]) {
		i++
	}
	for j > i && jsonscan.IsSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func decodeOptions(val []byte) (*InitOptions, error) {
	if isNull(val) {
		return nil, nil
	}
	if len(val) == 0 || val[0] != '{' {
		return nil, want("options", "an object", val)
	}
	members, _ := jsonscan.Object(val, nil)
	o := &InitOptions{}
	for _, mb := range members {
		var err error
		switch string(mb.Key) {
		case `"width"`:
			var n int64
			n, err = integer("options.width", mb.Val, 0)
			o.Width = int(min(n, 1<<20))
		case `"meta_tools"`:
			o.MetaTools, err = strList("options.meta_tools", mb.Val)
		case `"features"`:
			o.Features, err = strList("options.features", mb.Val)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

// decodeReply decodes one reply line. Timeline and Delta are slices of
// line.
func decodeReply(line []byte, buf []jsonscan.Member) (*Reply, []jsonscan.Member, error) {
	members, err := split(line, buf)
	if err != nil {
		return nil, members, err
	}
	r := &Reply{}
	for _, mb := range members {
		if err := r.member(mb); err != nil {
			return r, members, err
		}
	}
	return r, members, nil
}

func (r *Reply) member(mb jsonscan.Member) error {
	var err error
	var n int64
	switch string(mb.Key) {
	case `"type"`:
		r.Type, err = str("type", mb.Val)
	case `"id"`:
		r.ID, err = integer("id", mb.Val, 0)
	case `"index"`:
		n, err = integer("index", mb.Val, 0)
		r.Index = int(n)
	case `"protocol"`:
		r.Protocol, err = str("protocol", mb.Val)
	case `"capabilities"`:
		r.Capabilities, err = strList("capabilities", mb.Val)
	case `"fields"`:
		r.Fields, err = strList("fields", mb.Val)
	case `"features"`:
		r.Features, err = strList("features", mb.Val)
	case `"contract"`:
		r.Contract, err = strList("contract", mb.Val)
	case `"documented"`:
		r.Documented, err = strList("documented", mb.Val)
	case `"by_design"`:
		r.ByDesign, err = strList("by_design", mb.Val)
	case `"grouping"`:
		if !isNull(mb.Val) {
			var g bool
			g, err = boolean("grouping", mb.Val)
			r.Grouping = &g
		}
	case `"timeline"`:
		r.Timeline, err = object("timeline", mb.Val)
	case `"delta"`:
		r.Delta, err = object("delta", mb.Val)
	case `"text"`:
		r.Text, err = str("text", mb.Val)
	case `"message"`:
		r.Message, err = str("message", mb.Val)
	}
	return err
}

// appendMessage appends the one-line encoding of m, without a newline.
func appendMessage(dst []byte, m *Message) []byte {
	dst = appendStr(append(dst, `{"type":`...), m.Type)
	dst = strconv.AppendInt(append(dst, `,"id":`...), m.ID, 10)
	if m.Protocol != "" {
		dst = appendStr(append(dst, `,"protocol":`...), m.Protocol)
	}
	if o := m.Options; o != nil {
		dst = strconv.AppendInt(append(dst, `,"options":{"width":`...), int64(o.Width), 10)
		dst = appendStrs(append(dst, `,"meta_tools":`...), o.MetaTools)
		if o.Features != nil {
			dst = appendStrs(append(dst, `,"features":`...), o.Features)
		}
		dst = append(dst, '}')
	}
	if m.Event != nil {
		dst = append(append(dst, `,"event":`...), m.Event...)
	}
	if m.Events != nil {
		dst = append(dst, `,"events":[`...)
		for i, e := range m.Events {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, e...)
		}
		dst = append(dst, ']')
	}
	if m.Finish {
		dst = append(dst, `,"finish":true`...)
	}
	if m.Width != 0 {
		dst = strconv.AppendInt(append(dst, `,"width":`...), int64(m.Width), 10)
	}
	if m.Log != "" {
		dst = appendStr(append(dst, `,"log":`...), m.Log)
	}
	return append(dst, '}')
}

// appendStr appends s as a JSON string.
func appendStr(dst []byte, s string) []byte {
	b, _ := json.Marshal(s) // strings here are short: types, names, messages
	return append(dst, b...)
}

func appendStrs(dst []byte, ss []string) []byte {
	if ss == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, s := range ss {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendStr(dst, s)
	}
	return append(dst, ']')
}
