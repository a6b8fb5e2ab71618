package timeline

import (
	"strconv"
	"unicode/utf8"
)

// This file is the hand-written encoder of docs/timeline.md. Its output is
// byte for byte what encoding/json writes for the same value (HTML-safe
// escapes, U+FFFD for invalid UTF-8, omitempty members left out, a nil
// element of a list written as null), so [Timeline.MarshalJSON] and the
// protocol hot path agree; FuzzCodec checks it.

// AppendJSON appends the toolsim-timeline/1 encoding of tl to dst.
func AppendJSON(dst []byte, tl *Timeline) []byte {
	dst = append(dst, `{"diagnostics":`...)
	dst = AppendDiagnostics(dst, tl.Diagnostics)
	dst = append(dst, `,"format":"`+Format+`","items":[`...)
	for i, it := range tl.Items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendItem(dst, it)
	}
	dst = append(dst, `],"now":`...)
	dst = strconv.AppendInt(dst, tl.Now, 10)
	return append(dst, '}')
}

// AppendDiagnostics appends a list of diagnostics ([] when empty).
func AppendDiagnostics(dst []byte, ds []Diagnostic) []byte {
	dst = append(dst, '[')
	for i := range ds {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"code":`...)
		dst = appendString(dst, ds[i].Code)
		dst = append(dst, `,"id":`...)
		dst = appendString(dst, ds[i].ID)
		dst = append(dst, `,"seq":`...)
		dst = strconv.AppendInt(dst, ds[i].Seq, 10)
		dst = append(dst, '}')
	}
	return append(dst, ']')
}

// AppendItem appends the encoding of one item (null for nil).
func AppendItem(dst []byte, it *Item) []byte {
	if it == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '{')
	if it.Batch != "" {
		dst = appendString(append(dst, `"batch":`...), it.Batch)
		dst = append(dst, ',')
	}
	if it.Interrupted {
		dst = append(dst, `"interrupted":true,`...)
	}
	dst = appendString(append(dst, `"kind":`...), string(it.Kind))
	if it.Level != "" {
		dst = appendString(append(dst, `,"level":`...), it.Level)
	}
	if it.Text != "" {
		dst = appendString(append(dst, `,"text":`...), it.Text)
	}
	if it.Tool != nil {
		dst = appendTool(append(dst, `,"tool":`...), it.Tool)
	}
	if len(it.Tools) > 0 {
		dst = append(dst, `,"tools":[`...)
		for i, t := range it.Tools {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendTool(dst, t)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

// member appends ,"key": (or "key": first in its object).
func member(dst []byte, first *bool, key string) []byte {
	if !*first {
		dst = append(dst, ',')
	}
	*first = false
	dst = append(dst, '"')
	dst = append(dst, key...)
	return append(dst, '"', ':')
}

func appendTool(dst []byte, t *Tool) []byte {
	if t == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '{')
	first := true
	if t.Batch != "" {
		dst = appendString(member(dst, &first, "batch"), t.Batch)
	}
	if len(t.Children) > 0 {
		dst = append(member(dst, &first, "children"), '[')
		for i, c := range t.Children {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendItem(dst, c)
		}
		dst = append(dst, ']')
	}
	if t.Delegation != nil {
		dst = appendDelegation(member(dst, &first, "delegation"), t.Delegation)
	}
	if t.DurationMS != 0 {
		dst = strconv.AppendInt(member(dst, &first, "duration_ms"), t.DurationMS, 10)
	}
	if t.EndT != 0 {
		dst = strconv.AppendInt(member(dst, &first, "end_t"), t.EndT, 10)
	}
	if t.Error != "" {
		dst = appendString(member(dst, &first, "error"), t.Error)
	}
	dst = appendString(member(dst, &first, "id"), t.ID)
	if t.Meta {
		dst = append(dst, `,"meta":true`...)
	}
	dst = appendString(append(dst, `,"name":`...), t.Name)
	if t.Output != "" {
		dst = appendString(append(dst, `,"output":`...), t.Output)
	}
	if t.Parent != "" {
		dst = appendString(append(dst, `,"parent":`...), t.Parent)
	}
	dst = strconv.AppendInt(append(dst, `,"start_t":`...), t.StartT, 10)
	dst = appendString(append(dst, `,"status":`...), string(t.Status))
	if t.Summary != "" {
		dst = appendString(append(dst, `,"summary":`...), t.Summary)
	}
	if t.UpdateSeq != 0 {
		dst = strconv.AppendInt(append(dst, `,"update_seq":`...), int64(t.UpdateSeq), 10)
	}
	return append(dst, '}')
}

func appendDelegation(dst []byte, d *Delegation) []byte {
	dst = append(dst, '{')
	if d.ActiveID != "" {
		dst = appendString(append(dst, `"active_id":`...), d.ActiveID)
		dst = append(dst, ',')
	}
	dst = appendString(append(dst, `"mode":`...), d.Mode)
	dst = append(dst, `,"steps":`...)
	if d.Steps == nil {
		dst = append(dst, "null"...)
	} else {
		dst = append(dst, '[')
		for i := range d.Steps {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendStep(dst, &d.Steps[i])
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func appendStep(dst []byte, s *Step) []byte {
	dst = appendString(append(dst, `{"agent":`...), s.Agent)
	dst = appendString(append(dst, `,"id":`...), s.ID)
	if s.Preview != "" {
		dst = appendString(append(dst, `,"preview":`...), s.Preview)
	}
	dst = appendString(append(dst, `,"status":`...), s.Status)
	dst = appendString(append(dst, `,"task":`...), s.Task)
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string the way encoding/json does:
// HTML-safe, with U+FFFD for invalid UTF-8 and U+2028/U+2029 escaped.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = appendEscape(append(dst, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, s[start:i]...), `\u202`...)
			dst = append(dst, hexDigits[r&0xF])
		default:
			i += n
			continue
		}
		i += n
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
