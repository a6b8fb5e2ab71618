package claudetranscript

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
)

// scan.go, scan_walk.go and scan_decode.go are a small one-pass JSON
// scanner: it validates a value while walking it and hands out the raw
// bytes of object members and array elements, so the importer decodes only
// what it maps and never builds values for the large parts of a record
// (file contents, images, the toolUseResult copy of every result).
// encoding/json reaches about 45 MB/s on a real transcript because it
// scans every byte twice with a per-byte state machine; this reaches the
// 100 MB/s target (see doc.go).

// syntaxError is malformed JSON at a byte offset of the line.
type syntaxError struct {
	off int
	msg string
	eof bool // the input ended inside a value
}

// Error implements error: the message and the byte offset.
func (e *syntaxError) Error() string {
	return fmt.Sprintf("%s at byte offset %d", e.msg, e.off)
}

// errEOF is the error of input that ends inside a value.
func errEOF(off int) error {
	return &syntaxError{off: off, msg: "unexpected end of JSON input", eof: true}
}

// errAt is a syntax error at a byte offset.
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

// skipWS returns the index of the first non-whitespace byte at or after i.
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

// hexVal is the value of a hex digit, or -1.
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

// literal validates the literal lit at b[i] and returns the index after it.
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

// skipNumber validates the number starting at b[i] and returns the index
// after it.
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
