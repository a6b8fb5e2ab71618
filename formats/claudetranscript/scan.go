package claudetranscript

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is a small one-pass JSON scanner: it validates a value while
// walking it and hands out the raw bytes of object members and array
// elements, so the importer decodes only what it maps and never builds
// values for the large parts of a record (file contents, images, the
// toolUseResult copy of every result). encoding/json reaches about 45 MB/s
// on a real transcript because it scans every byte twice with a
// per-byte state machine; this reaches the 100 MB/s target (see doc.go).

// syntaxError is malformed JSON at a byte offset of the line.
type syntaxError struct {
	off int
	msg string
	eof bool // the input ended inside a value
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("%s at byte offset %d", e.msg, e.off)
}

func errEOF(off int) error {
	return &syntaxError{off: off, msg: "unexpected end of JSON input", eof: true}
}

func errAt(off int, format string, args ...any) error {
	return &syntaxError{off: off, msg: fmt.Sprintf(format, args...)}
}

// maxDepth bounds nesting so a hostile line cannot exhaust the stack.
const maxDepth = 10000

// plain[c] is true for string bytes that need no attention.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func skipWS(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString validates the string starting at b[i] == '"' and returns the
// index after its closing quote.
func skipString(b []byte, i int) (int, error) {
	i++
	for {
		i = plainRun(b, i)
		if i >= len(b) {
			return i, errEOF(i)
		}
		switch c := b[i]; c {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 >= len(b) {
				return i, errEOF(i + 1)
			}
			switch b[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				if i+6 > len(b) {
					return i, errEOF(len(b))
				}
				for _, h := range b[i+2 : i+6] {
					if hexVal(h) < 0 {
						return i, errAt(i, "invalid \\u escape in string")
					}
				}
				i += 6
			default:
				return i, errAt(i, "invalid escape %q in string", b[i+1])
			}
		default:
			return i, errAt(i, "control character %#x in string", c)
		}
	}
}

// plainRun returns the index of the first byte at or after i that ends a
// run of plain string bytes (a quote, a backslash or a control byte), or
// len(b). It tests eight bytes at a time.
func plainRun(b []byte, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for {
		for i+8 <= len(b) {
			w := binary.LittleEndian.Uint64(b[i:])
			q := w ^ (lo * '"')
			s := w ^ (lo * '\\')
			// A high bit set marks a byte below 0x20, a quote or a
			// backslash (a borrow may mark a later byte too: the byte loop
			// below settles it).
			if ((w-lo*0x20)&^w|(q-lo)&^q|(s-lo)&^s)&hi != 0 {
				break
			}
			i += 8
		}
		for end := min(i+8, len(b)); i < end; i++ {
			if !plain[b[i]] {
				return i
			}
		}
		if i >= len(b) {
			return i
		}
	}
}

func hexVal(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// trustedString returns the index after the string starting at b[i] ==
// '"', in a value already validated: it only looks for the closing quote.
func trustedString(b []byte, i int) (int, error) {
	i++
	for {
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			return len(b), errEOF(len(b))
		}
		i += k
		// The quote is escaped when an odd number of backslashes precede it.
		n := 0
		for j := i - 1; j >= 0 && b[j] == '\\'; j-- {
			n++
		}
		i++
		if n%2 == 0 {
			return i, nil
		}
	}
}

// skipScalar returns the index after a number or literal in a value
// already validated.
func skipScalar(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// skipValue validates the value starting at or after b[i] (after
// whitespace) and returns the index after it. A negative depth marks a
// value already validated: it is only skipped, much faster.
func skipValue(b []byte, i, depth int) (int, error) {
	i = skipWS(b, i)
	if i >= len(b) {
		return i, errEOF(i)
	}
	if depth < 0 {
		switch b[i] {
		case '{':
			return walkObject(b, i, depth, nil)
		case '[':
			return walkArray(b, i, depth, nil)
		case '"':
			return trustedString(b, i)
		default:
			return skipScalar(b, i), nil
		}
	}
	switch c := b[i]; {
	case c == '{':
		return walkObject(b, i, depth+1, nil)
	case c == '[':
		return walkArray(b, i, depth+1, nil)
	case c == '"':
		return skipString(b, i)
	case c == 't':
		return literal(b, i, "true")
	case c == 'f':
		return literal(b, i, "false")
	case c == 'n':
		return literal(b, i, "null")
	case c == '-' || '0' <= c && c <= '9':
		return skipNumber(b, i)
	default:
		return i, errAt(i, "invalid character %q looking for beginning of value", c)
	}
}

func literal(b []byte, i int, lit string) (int, error) {
	n := len(lit)
	if i+n > len(b) {
		if strings.HasPrefix(lit, string(b[i:])) {
			return i, errEOF(len(b))
		}
		return i, errAt(i, "invalid literal")
	}
	if string(b[i:i+n]) != lit {
		return i, errAt(i, "invalid literal")
	}
	return i + n, nil
}

func skipNumber(b []byte, i int) (int, error) {
	start := i
	digits := func() bool {
		s := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > s
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	if i < len(b) && b[i] == '0' {
		i++
	} else if !digits() {
		if i >= len(b) {
			return i, errEOF(i)
		}
		return i, errAt(start, "invalid number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			if i >= len(b) {
				return i, errEOF(i)
			}
			return i, errAt(start, "invalid number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			if i >= len(b) {
				return i, errEOF(i)
			}
			return i, errAt(start, "invalid number")
		}
	}
	return i, nil
}

// walkObject validates the object at b[i] == '{', calling fn (when not nil)
// with each member's raw key (between the quotes) and raw value. With a
// negative depth the object was validated before and is only walked.
func walkObject(b []byte, i, depth int, fn func(key, val []byte)) (int, error) {
	if depth > maxDepth {
		return i, errAt(i, "nesting deeper than %d", maxDepth)
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == '}' {
		return i + 1, nil
	}
	for {
		if i >= len(b) {
			return i, errEOF(i)
		}
		if b[i] != '"' {
			return i, errAt(i, "invalid character %q looking for an object key", b[i])
		}
		ks := i
		ke, err := skipKey(b, i, depth)
		if err != nil {
			return ke, err
		}
		i = skipWS(b, ke)
		if i >= len(b) {
			return i, errEOF(i)
		}
		if b[i] != ':' {
			return i, errAt(i, "invalid character %q after an object key", b[i])
		}
		vs := skipWS(b, i+1)
		ve, err := skipValue(b, vs, depth)
		if err != nil {
			return ve, err
		}
		if fn != nil {
			fn(b[ks+1:ke-1], b[vs:ve])
		}
		i = skipWS(b, ve)
		if i >= len(b) {
			return i, errEOF(i)
		}
		switch b[i] {
		case ',':
			i = skipWS(b, i+1)
		case '}':
			return i + 1, nil
		default:
			return i, errAt(i, "invalid character %q after an object member", b[i])
		}
	}
}

// walkArray validates the array at b[i] == '[', calling fn (when not nil)
// with each element's raw value (depth as for walkObject).
func walkArray(b []byte, i, depth int, fn func(val []byte)) (int, error) {
	if depth > maxDepth {
		return i, errAt(i, "nesting deeper than %d", maxDepth)
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, nil
	}
	for {
		vs := skipWS(b, i)
		ve, err := skipValue(b, vs, depth)
		if err != nil {
			return ve, err
		}
		if fn != nil {
			fn(b[vs:ve])
		}
		i = skipWS(b, ve)
		if i >= len(b) {
			return i, errEOF(i)
		}
		switch b[i] {
		case ',':
			i++
		case ']':
			return i + 1, nil
		default:
			return i, errAt(i, "invalid character %q after an array element", b[i])
		}
	}
}

func skipKey(b []byte, i, depth int) (int, error) {
	if depth < 0 {
		return trustedString(b, i)
	}
	return skipString(b, i)
}

// topObject validates a whole line holding one JSON object and calls fn for
// each member. Members seen before an error have been passed to fn.
func topObject(line []byte, fn func(key, val []byte)) error {
	i := skipWS(line, 0)
	if i >= len(line) {
		return errEOF(i)
	}
	if line[i] != '{' {
		return errAt(i, "want a JSON object, got %q", line[i])
	}
	end, err := walkObject(line, i, 1, fn)
	if err != nil {
		return err
	}
	if j := skipWS(line, end); j < len(line) {
		return errAt(j, "invalid character %q after the top-level object", line[j])
	}
	return nil
}

// members calls fn for each member of val when it is an object (already
// validated by the walk that produced it); other values are ignored.
func members(val []byte, fn func(key, val []byte)) {
	if len(val) > 0 && val[0] == '{' {
		_, _ = walkObject(val, 0, -1, fn) // validated by the walk that produced val
	}
}

// elems calls fn for each element of val when it is an array.
func elems(val []byte, fn func(val []byte)) {
	if len(val) > 0 && val[0] == '[' {
		_, _ = walkArray(val, 0, -1, fn) // validated by the walk that produced val
	}
}

// str decodes a validated JSON string value; other values give "".
func str(val []byte) string {
	if len(val) < 2 || val[0] != '"' {
		return ""
	}
	in := val[1 : len(val)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		if utf8.Valid(in) {
			return string(in)
		}
		return fixUTF8(in)
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		if c != '\\' {
			j := i + 1
			for j < len(in) && in[j] != '\\' {
				j++
			}
			out = append(out, in[i:j]...)
			i = j
			continue
		}
		switch in[i+1] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(in[i+2:])
			i += 6
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+6 <= len(in) && in[i] == '\\' && in[i+1] == 'u' {
					r2 = hex4(in[i+2:])
				}
				if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
					i += 6
					r = dec
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		default: // '"', '\\', '/'
			out = append(out, in[i+1])
		}
		i += 2
	}
	if !utf8.Valid(out) {
		return fixUTF8(out)
	}
	return string(out)
}

// fixUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func fixUTF8(b []byte) string {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return string(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | rune(hexVal(c))
	}
	return r
}

// isTrue reports whether val is the literal true.
func isTrue(val []byte) bool { return string(val) == "true" }

// isNull reports whether val is the literal null.
func isNull(val []byte) bool { return string(val) == "null" }

// integer decodes a non-negative integral number value.
func integer(val []byte) (int64, bool) {
	if len(val) == 0 || val[0] < '0' || val[0] > '9' {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(val), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(val), 64)
	if err != nil || f < 0 || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}
