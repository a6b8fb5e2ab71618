package acp

import (
	"bytes"
	"time"
)

// Direction markers of a transport log line. Which side a marker stands
// for depends on where the log was written (a client logs the agent's
// messages as IN, an agent logs them as OUT), so the importer learns it
// from the first request whose sender the method names.
const (
	dirNone byte = 0
	dirIn   byte = 'i'
	dirOut  byte = 'o'
)

// lineClass says what a source line holds.
type lineClass int

const (
	lineBlank lineClass = iota // empty or white space
	lineOther                  // a log line that carries no ACP message
	lineJSON                   // a JSON-RPC message, raw or after a prefix
)

// srcLine is one source line split into its parts.
type srcLine struct {
	class  lineClass
	json   []byte    // the message (from its '{' to the end of the line)
	dir    byte      // dirIn, dirOut or dirNone
	marker string    // "IN:" or "OUT:" when there is one, for messages
	ts     time.Time // the prefix's timestamp, when hasTS
	hasTS  bool
	raw    bool // the line is the JSON alone, without a prefix
}

var (
	markerIn      = []byte("IN:")
	markerOut     = []byte("OUT:")
	transportName = []byte("AcpTransport")
	jsonrpcKey    = []byte(`"jsonrpc"`)
)

// splitLine classifies one line:
//
//   - a line that starts with '{' is a raw JSON-RPC message;
//   - a line with an "IN:" or "OUT:" marker before its first '{' is a
//     transport log line: the message starts after the marker, the
//     timestamp (if any) starts the line. A marker followed by something
//     other than '{' still counts as a transport line when the line names
//     the AcpTransport logger (its message is then missing or broken);
//   - a line with a "jsonrpc" member after some prefix is a message too
//     (a logger without direction markers);
//   - anything else is an unrelated log line.
func splitLine(line []byte) srcLine {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 {
		return srcLine{class: lineBlank}
	}
	if trimmed[0] == '{' {
		return srcLine{class: lineJSON, json: trimmed, raw: true}
	}
	sl := srcLine{}
	sl.ts, sl.hasTS = parseTimestamp(trimmed)
	head := trimmed
	if brace := bytes.IndexByte(trimmed, '{'); brace >= 0 {
		head = trimmed[:brace]
	}
	if at, m, dir := findMarker(head); at >= 0 {
		rest := bytes.TrimLeft(trimmed[at+len(m):], " \t")
		if (len(rest) > 0 && rest[0] == '{') || bytes.Contains(trimmed[:at], transportName) {
			sl.class, sl.json, sl.dir, sl.marker = lineJSON, rest, dir, string(m)
			return sl
		}
		sl.class = lineOther
		return sl
	}
	if k := bytes.Index(trimmed, jsonrpcKey); k >= 0 {
		if brace := bytes.IndexByte(trimmed, '{'); brace >= 0 && brace < k {
			sl.class, sl.json = lineJSON, trimmed[brace:]
			return sl
		}
	}
	sl.class = lineOther
	return sl
}

// findMarker returns the position of the first "IN:" or "OUT:" in head
// that starts a word (line start, or after a space or tab).
func findMarker(head []byte) (int, []byte, byte) {
	best, bestM, bestDir := -1, []byte(nil), dirNone
	for _, c := range []struct {
		m   []byte
		dir byte
	}{{markerIn, dirIn}, {markerOut, dirOut}} {
		for off := 0; off < len(head); {
			i := bytes.Index(head[off:], c.m)
			if i < 0 {
				break
			}
			i += off
			if i == 0 || head[i-1] == ' ' || head[i-1] == '\t' {
				if best < 0 || i < best {
					best, bestM, bestDir = i, c.m, c.dir
				}
				break
			}
			off = i + 1
		}
	}
	return best, bestM, bestDir
}

// parseTimestamp reads a timestamp at the start of a log line:
// "2006-01-02 15:04:05,000" (JetBrains, log4j), with '.' or ',' before the
// fraction, 'T' or ' ' between date and time, any number of fraction
// digits, and an optional "Z" or "±hh:mm" zone. Without a zone the time is
// read as UTC: only differences between lines matter.
func parseTimestamp(b []byte) (time.Time, bool) {
	if len(b) < 19 {
		return time.Time{}, false
	}
	if b[4] != '-' || b[7] != '-' || (b[10] != ' ' && b[10] != 'T') || b[13] != ':' || b[16] != ':' {
		return time.Time{}, false
	}
	year, ok1 := num(b[0:4])
	month, ok2 := num(b[5:7])
	day, ok3 := num(b[8:10])
	hour, ok4 := num(b[11:13])
	minute, ok5 := num(b[14:16])
	sec, ok6 := num(b[17:19])
	if !(ok1 && ok2 && ok3 && ok4 && ok5 && ok6) || month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 60 {
		return time.Time{}, false
	}
	nsec, rest := fraction(b[19:])
	return time.Date(year, time.Month(month), day, hour, minute, sec, nsec, zone(rest)), true
}

// num reads a run of decimal digits; ok is false when s holds anything
// else.
func num(s []byte) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// fraction reads the fraction of a second that may follow the seconds
// (',' or '.' and digits) as nanoseconds, and returns what follows it.
func fraction(rest []byte) (int, []byte) {
	nsec := 0
	if len(rest) > 1 && (rest[0] == ',' || rest[0] == '.') && rest[1] >= '0' && rest[1] <= '9' {
		scale := 100_000_000
		i := 1
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		rest = rest[i:]
	}
	return nsec, rest
}

// zone reads the zone that may follow the time: "Z" or "±hh:mm"; anything
// else is UTC.
func zone(rest []byte) *time.Location {
	loc := time.UTC
	switch {
	case len(rest) > 0 && rest[0] == 'Z':
	case len(rest) >= 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		h, okh := num(rest[1:3])
		m, okm := num(rest[4:6])
		if okh && okm {
			off := h*3600 + m*60
			if rest[0] == '-' {
				off = -off
			}
			loc = time.FixedZone("", off)
		}
	}
	return loc
}
