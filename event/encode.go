package event

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// AppendEvent appends the canonical one-line JSON encoding of ev (without a
// newline) to dst. Members come in a fixed order: seq, t, kind, the kind's
// own fields in the order of docs/trace-format.md, then Extra sorted by key.
// Raw members (Args, Details, Extra values) are written as they are; use a
// [Writer] to have them checked.
func AppendEvent(dst []byte, ev *Event) []byte {
	dst = append(dst, `{"seq":`...)
	dst = strconv.AppendInt(dst, ev.Seq, 10)
	dst = append(dst, `,"t":`...)
	dst = strconv.AppendInt(dst, ev.T, 10)
	dst = append(dst, `,"kind":`...)
	dst = appendString(dst, string(ev.Kind))
	spec := specOf(ev.Kind)
	for _, fn := range fieldNames {
		if spec.allowed&fn.f == 0 || !(spec.required&fn.f != 0 || present(ev, fn.f)) {
			continue
		}
		dst = append(dst, ',')
		dst = appendString(dst, fn.name)
		dst = append(dst, ':')
		dst = appendField(dst, ev, fn.f)
	}
	dst = appendExtra(dst, ev.Extra)
	return append(dst, '}')
}

// present reports whether an optional field holds a value worth writing.
func present(ev *Event, f field) bool {
	switch f {
	case fArgs:
		// tool_start always carries args, {} by default; a tool_update
		// only when it changes them.
		return ev.Kind != KindToolUpdate || ev.Args != nil
	case fDetails:
		return ev.Details != nil
	case fOK:
		return true
	case fDuration:
		return ev.DurationMS != nil
	case fRole:
		return ev.Role != ""
	case fState:
		return ev.State != ""
	default:
		return *stringField(ev, f) != ""
	}
}

func appendField(dst []byte, ev *Event, f field) []byte {
	switch f {
	case fRole:
		return appendString(dst, ev.Role)
	case fState:
		return appendString(dst, ev.State)
	case fArgs:
		if len(ev.Args) == 0 {
			return append(dst, "{}"...)
		}
		return append(dst, ev.Args...)
	case fDetails:
		return append(dst, ev.Details...)
	case fOK:
		return strconv.AppendBool(dst, ev.OK)
	case fDuration:
		if ev.DurationMS == nil {
			return append(dst, '0')
		}
		return strconv.AppendInt(dst, *ev.DurationMS, 10)
	default:
		return appendString(dst, *stringField(ev, f))
	}
}

// appendExtra writes unknown members sorted by key.
func appendExtra(dst []byte, extra []Field) []byte {
	if len(extra) == 0 {
		return dst
	}
	sorted := extra
	if !slices.IsSortedFunc(extra, cmpField) {
		sorted = slices.SortedFunc(slices.Values(extra), cmpField)
	}
	for _, f := range sorted {
		dst = append(dst, ',')
		dst = appendString(dst, f.Key)
		dst = append(dst, ':')
		if len(f.Value) == 0 {
			dst = append(dst, "null"...)
			continue
		}
		dst = append(dst, f.Value...)
	}
	return dst
}

func cmpField(a, b Field) int { return strings.Compare(a.Key, b.Key) }

// AppendHeader appends the one-line JSON encoding of h to dst.
func AppendHeader(dst []byte, h *Header) []byte {
	dst = append(dst, `{"trace":`...)
	dst = appendString(dst, Version)
	if h.Source != "" {
		dst = append(dst, `,"source":`...)
		dst = appendString(dst, h.Source)
	}
	if h.Seed != nil {
		dst = append(dst, `,"seed":`...)
		dst = strconv.AppendInt(dst, *h.Seed, 10)
	}
	if h.Meta != nil {
		dst = append(dst, `,"meta":`...)
		dst = append(dst, h.Meta...)
	}
	dst = appendExtra(dst, h.Extra)
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendString appends s as a JSON string literal. Invalid UTF-8 becomes
// U+FFFD, as encoding/json does.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			dst = append(dst, s[start:i]...)
			dst = appendEscape(dst, c)
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += n
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

func appendEscape(dst []byte, c byte) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}
