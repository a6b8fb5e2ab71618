package store

import (
	"encoding/json"
	"strconv"
)

// appendRecord appends r as encoding/json marshals it (the same bytes,
// members in struct order, omitempty honoured) without reflection: the
// writer encodes one record per event, and json.Marshal was a third of
// persisting a short trace. Values it cannot copy verbatim (a string
// needing escapes, raw JSON that is not already compact, plain ASCII and
// valid) are left to encoding/json: a string on its own, and a record with
// such raw JSON whole, so that invalid raw JSON fails exactly as before.
func appendRecord(dst []byte, r *Record) ([]byte, error) {
	if !plainRaw(r.Args) || !plainRaw(r.Details) || !plainRaw(r.Event) {
		b, err := json.Marshal(r)
		return append(dst, b...), err
	}
	dst = append(dst, `{"v":`...)
	dst = strconv.AppendInt(dst, int64(r.V), 10)
	dst = member(dst, "id", r.ID, false)
	dst = intMember(dst, "seq", r.Seq)
	dst = member(dst, "parent", r.Parent, true)
	dst = member(dst, "ts", r.TS, false)
	dst = member(dst, "type", r.Type, false)
	dst = member(dst, "role", r.Role, true)
	dst = member(dst, "text", r.Text, true)
	if r.Interrupted {
		dst = append(dst, `,"interrupted":true`...)
	}
	dst = member(dst, "call_id", r.CallID, true)
	dst = member(dst, "name", r.Name, true)
	dst = rawMember(dst, "args", r.Args)
	dst = member(dst, "batch", r.Batch, true)
	dst = member(dst, "parent_call", r.ParentCall, true)
	dst = member(dst, "output", r.Output, true)
	dst = rawMember(dst, "details", r.Details)
	if r.OK != nil {
		dst = append(dst, `,"ok":`...)
		dst = strconv.AppendBool(dst, *r.OK)
	}
	dst = member(dst, "error", r.Error, true)
	dst = intMember(dst, "duration_ms", r.DurationMS)
	dst = member(dst, "state", r.State, true)
	dst = member(dst, "reason", r.Reason, true)
	dst = member(dst, "message", r.Message, true)
	dst = rawMember(dst, "event", r.Event)
	if r.Updates != 0 {
		dst = append(dst, `,"updates":`...)
		dst = strconv.AppendInt(dst, int64(r.Updates), 10)
	}
	dst = member(dst, "progress", r.Progress, true)
	dst = member(dst, "end_ts", r.EndTS, true)
	dst = intMember(dst, "end_seq", r.EndSeq)
	dst = member(dst, "end_parent", r.EndParent, true)
	return append(dst, '}'), nil
}

// member appends `,"name":"s"`, or nothing for an empty s with omitEmpty.
func member(dst []byte, name, s string, omitEmpty bool) []byte {
	if omitEmpty && s == "" {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return appendString(dst, s)
}

func intMember(dst []byte, name string, n *int64) []byte {
	if n == nil {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return strconv.AppendInt(dst, *n, 10)
}

// rawMember appends raw JSON that plainRaw accepted, or nothing when it is
// empty.
func rawMember(dst []byte, name string, raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return dst
	}
	dst = append(dst, ',', '"')
	dst = append(dst, name...)
	dst = append(dst, '"', ':')
	return append(dst, raw...)
}

// appendString appends s quoted as encoding/json quotes it (HTML escapes
// included): verbatim when it holds only printable ASCII that needs no
// escape, else through encoding/json.
func appendString(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plainByte(s[i]) {
			b, _ := json.Marshal(s)
			return append(dst, b...)
		}
	}
	dst = append(dst, '"')
	dst = append(dst, s...)
	return append(dst, '"')
}

// plainByte reports whether encoding/json writes byte c of a string as it
// is: printable ASCII other than the quote, the backslash and the HTML
// characters it escapes.
func plainByte(c byte) bool {
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// plainRaw reports whether encoding/json would write raw as it is: empty
// (omitted), or valid JSON of printable ASCII without whitespace (nothing
// to compact, outside strings or in) and without HTML characters.
func plainRaw(raw json.RawMessage) bool {
	if len(raw) == 0 {
		return true
	}
	for _, c := range raw {
		if c <= ' ' || c >= 0x7f || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return json.Valid(raw)
}

// appendHeader appends h as encoding/json marshals it.
func appendHeader(dst []byte, h *Header) []byte {
	dst = append(dst, `{"log":`...)
	dst = appendString(dst, h.Log)
	dst = member(dst, "t0", h.T0, false)
	dst = member(dst, "writer", h.Writer, true)
	if len(h.Faults) > 0 {
		dst = append(dst, `,"faults":[`...)
		for i, f := range h.Faults {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = appendString(dst, f)
		}
		dst = append(dst, ']')
	}
	if h.Seed != 0 {
		dst = append(dst, `,"seed":`...)
		dst = strconv.AppendUint(dst, h.Seed, 10)
	}
	return append(dst, '}')
}
