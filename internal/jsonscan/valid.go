package jsonscan

import (
	"encoding/binary"
	"fmt"
	"unicode/utf8"
)

// This file is a validating JSON syntax checker: one pass over the bytes, no
// allocation, RFC 8259 grammar, and UTF-8 checked inside strings.

// maxDepth bounds nesting, as encoding/json does, so that hostile input
// cannot exhaust the stack.
const maxDepth = 10000

// SyntaxError is a failed check: where and why.
type SyntaxError struct {
	Offset  int
	Msg     string
	BadUTF8 bool // the bytes are not UTF-8 (rather than not JSON)
}

// Error describes the problem and its byte offset.
func (e *SyntaxError) Error() string { return fmt.Sprintf("%s at byte offset %d", e.Msg, e.Offset) }

type validator struct {
	b       []byte
	err     *SyntaxError
	members []Member // top-level object members, when collecting
	elems   [][]byte // top-level array elements, when collecting
	arrays  bool     // collect elems
}

// Check returns nil when b holds exactly one well-formed JSON value in
// valid UTF-8.
func Check(b []byte) *SyntaxError {
	v := validator{b: b}
	return v.check()
}

// Object checks b like Check and appends the members of a top-level
// object to members, without a second pass. The members are slices of b.
func Object(b []byte, members []Member) ([]Member, *SyntaxError) {
	v := validator{b: b, members: members}
	err := v.check()
	return v.members, err
}

// Array checks b like Check and appends the elements of a top-level array
// to elems, without a second pass. The elements are slices of b.
func Array(b []byte, elems [][]byte) ([][]byte, *SyntaxError) {
	v := validator{b: b, elems: elems, arrays: true}
	err := v.check()
	return v.elems, err
}

// check validates v.b; members of a top-level object are appended to
// v.members on the way.
func (v *validator) check() *SyntaxError {
	b := v.b
	i := v.value(SkipSpace(b, 0), 0)
	if v.err == nil && SkipSpace(b, i) != len(b) {
		v.fail(SkipSpace(b, i), "unexpected data after the value")
	}
	return v.err
}

func (v *validator) fail(i int, msg string) int {
	if v.err == nil {
		v.err = &SyntaxError{Offset: i, Msg: msg}
	}
	return len(v.b)
}

// value checks the value at i and returns the index after it.
func (v *validator) value(i, depth int) int {
	if i >= len(v.b) {
		return v.fail(i, "unexpected end of input")
	}
	switch c := v.b[i]; {
	case c == '{':
		return v.object(i, depth+1)
	case c == '[':
		return v.array(i, depth+1)
	case c == '"':
		return v.str(i)
	case c == '-' || (c >= '0' && c <= '9'):
		return v.number(i)
	case c == 't':
		return v.literal(i, "true")
	case c == 'f':
		return v.literal(i, "false")
	case c == 'n':
		return v.literal(i, "null")
	}
	return v.fail(i, fmt.Sprintf("invalid character %q looking for a value", v.b[i]))
}

func (v *validator) literal(i int, lit string) int {
	if len(v.b)-i < len(lit) || string(v.b[i:i+len(lit)]) != lit {
		return v.fail(i, "invalid literal")
	}
	return i + len(lit)
}

func (v *validator) object(i, depth int) int {
	return v.container(i, depth, '}')
}

// objectMember checks one "key": value member at i.
func (v *validator) objectMember(i, depth int) int {
	if i >= len(v.b) || v.b[i] != '"' {
		return v.fail(i, "expected a string key")
	}
	ks := i
	ke := v.str(i)
	i = SkipSpace(v.b, ke)
	if i >= len(v.b) || v.b[i] != ':' {
		return v.fail(i, "expected ':' after a key")
	}
	vs := SkipSpace(v.b, i+1)
	ve := v.value(vs, depth)
	if depth == 1 && v.err == nil {
		v.members = append(v.members, Member{Key: v.b[ks:ke], Val: v.b[vs:ve]})
	}
	return ve
}

func (v *validator) array(i, depth int) int {
	return v.container(i, depth, ']')
}

// container checks an object (closer '}') or array (closer ']') whose
// opening bracket is at i: members or values separated by commas.
func (v *validator) container(i, depth int, closer byte) int {
	if depth > maxDepth {
		return v.fail(i, "nesting too deep")
	}
	i = SkipSpace(v.b, i+1)
	if i < len(v.b) && v.b[i] == closer {
		return i + 1
	}
	for v.err == nil {
		switch {
		case closer == '}':
			i = v.objectMember(i, depth)
		case depth == 1 && v.arrays:
			start := i
			i = v.value(i, depth)
			if v.err == nil {
				v.elems = append(v.elems, v.b[start:i])
			}
		default:
			i = v.value(i, depth)
		}
		i = SkipSpace(v.b, i)
		if i < len(v.b) && v.b[i] == ',' {
			i = SkipSpace(v.b, i+1)
			continue
		}
		if i < len(v.b) && v.b[i] == closer {
			return i + 1
		}
		if closer == '}' {
			return v.fail(i, "expected ',' or '}' in an object")
		}
		return v.fail(i, "expected ',' or ']' in an array")
	}
	return len(v.b)
}

// plain marks the bytes a string may hold without a closer look.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// plainEnd returns the index of the first byte at or after i that is not
// plain (see plain), or len(b). It tests eight bytes at a time.
func plainEnd(b []byte, i int) int {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	for i+8 <= len(b) {
		w := binary.LittleEndian.Uint64(b[i:])
		q := w ^ (lo * '"')
		s := w ^ (lo * '\\')
		// A high bit set marks a byte of 0x80 or more, below 0x20, a quote
		// or a backslash (a borrow may mark a later byte too: the byte
		// loop below settles it).
		if (w|(w-lo*0x20)&^w|(q-lo)&^q|(s-lo)&^s)&hi != 0 {
			break
		}
		i += 8
	}
	for i < len(b) && plain[b[i]] {
		i++
	}
	return i
}

// str checks a string literal starting at the quote at i.
func (v *validator) str(i int) int {
	for i++; i < len(v.b); i++ {
		i = plainEnd(v.b, i)
		if i >= len(v.b) {
			break
		}
		switch c := v.b[i]; {
		case c == '"':
			return i + 1
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(v.b[i:])
			if r == utf8.RuneError && n <= 1 {
				v.fail(i, "invalid UTF-8")
				v.err.BadUTF8 = true
				return len(v.b)
			}
			i += n - 1
		case c < 0x20:
			return v.fail(i, "control character in a string")
		case c == '\\':
			i++
			if i >= len(v.b) {
				break
			}
			switch v.b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if !isHex4(v.b[i+1 : min(i+5, len(v.b))]) {
					return v.fail(i, `invalid \u escape`)
				}
				i += 4
			default:
				return v.fail(i, "invalid escape")
			}
		}
	}
	return v.fail(len(v.b), "unterminated string")
}

func isHex4(b []byte) bool {
	if len(b) != 4 {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (v *validator) number(i int) int {
	start := i
	if v.b[i] == '-' {
		i++
	}
	switch {
	case i < len(v.b) && v.b[i] == '0':
		i++
	case i < len(v.b) && v.b[i] >= '1' && v.b[i] <= '9':
		i = digits(v.b, i)
	default:
		return v.fail(start, "invalid number")
	}
	if i < len(v.b) && v.b[i] == '.' {
		if j := digits(v.b, i+1); j > i+1 {
			i = j
		} else {
			return v.fail(i, "invalid number")
		}
	}
	if i < len(v.b) && (v.b[i] == 'e' || v.b[i] == 'E') {
		i++
		if i < len(v.b) && (v.b[i] == '+' || v.b[i] == '-') {
			i++
		}
		if j := digits(v.b, i); j > i {
			i = j
		} else {
			return v.fail(i, "invalid number")
		}
	}
	return i
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}
