package timeline

import (
	"bytes"
	"fmt"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// This file is the hand-written decoder of docs/timeline.md: one pass over
// the bytes that checks the syntax and fills the values as it goes, with
// the strings of a reply copied into shared chunks. Whatever it accepts,
// encoding/json accepts too and decodes to the same value (FuzzCodec). It
// is stricter in a few ways, each reported with the member's path: invalid
// UTF-8, a member given twice, a key that differs from a known one only in
// case ("Kind"), a null element in a list, and a missing required member
// (an item's kind; a tool's id, name and status; a diagnostic's code and
// seq; the timeline's format and items). Unknown members are skipped.

// DecodeError is a timeline that does not decode: the path of the member at
// fault (e.g. "items[3].tool.status"), the byte offset and the reason.
type DecodeError struct {
	Path   string
	Offset int
	Reason string
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("%s (byte %d)", e.Reason, e.Offset)
	}
	return fmt.Sprintf("%s: %s (byte %d)", e.Path, e.Reason, e.Offset)
}

// in prefixes the path with seg (a member name or an [index]).
func (e *DecodeError) in(seg string) *DecodeError {
	switch {
	case e.Path == "":
		e.Path = seg
	case e.Path[0] == '[':
		e.Path = seg + e.Path
	default:
		e.Path = seg + "." + e.Path
	}
	return e
}

// maxDepth bounds nesting as encoding/json does.
const maxDepth = 10000

// Decoder decodes timelines and items. Strings of what it decodes are
// copied into chunks it shares between values; a Decoder is not safe for
// concurrent use. The zero value is ready.
type Decoder struct {
	b     []byte
	i     int
	depth int
	chunk []byte
	index []int // the item indexes of the delta being read
}

// Decode decodes a toolsim-timeline/1 object.
func Decode(data []byte) (*Timeline, error) {
	var d Decoder
	return d.Timeline(data)
}

// Timeline decodes a toolsim-timeline/1 object.
func (d *Decoder) Timeline(data []byte) (*Timeline, error) {
	d.reset(data)
	tl := &Timeline{}
	if err := d.whole(func() *DecodeError { return d.timeline(tl) }); err != nil {
		return nil, err
	}
	return tl, nil
}

// Item decodes one item object.
func (d *Decoder) Item(data []byte) (*Item, error) {
	d.reset(data)
	var it *Item
	err := d.whole(func() *DecodeError {
		var e *DecodeError
		it, e = d.item()
		return e
	})
	if err != nil {
		return nil, err
	}
	return it, nil
}

// Diagnostics decodes a list of diagnostics.
func (d *Decoder) Diagnostics(data []byte) ([]Diagnostic, error) {
	d.reset(data)
	var ds []Diagnostic
	err := d.whole(func() *DecodeError {
		var e *DecodeError
		ds, e = d.diagnostics()
		return e
	})
	if err != nil {
		return nil, err
	}
	return ds, nil
}

func (d *Decoder) reset(data []byte) { d.b, d.i, d.depth = data, 0, 0 }

// whole runs fn on the value and checks nothing follows it.
func (d *Decoder) whole(fn func() *DecodeError) error {
	d.space()
	if err := fn(); err != nil {
		return err
	}
	if d.space(); d.i != len(d.b) {
		return d.fail("unexpected data after the value")
	}
	return nil
}

func (d *Decoder) fail(format string, args ...any) *DecodeError {
	return &DecodeError{Offset: d.i, Reason: fmt.Sprintf(format, args...)}
}

func (d *Decoder) space() {
	for d.i < len(d.b) && jsonscan.IsSpace(d.b[d.i]) {
		d.i++
	}
}

// describe names what is at the cursor, for "want X, got Y".
func (d *Decoder) describe() string {
	if d.i >= len(d.b) {
		return "the end of the input"
	}
	switch c := d.b[d.i]; {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c == '-' || c >= '0' && c <= '9':
		return "a number"
	}
	return fmt.Sprintf("the character %q", d.b[d.i])
}

// null consumes a null literal if one is at the cursor.
func (d *Decoder) null() bool {
	if bytes.HasPrefix(d.b[d.i:], []byte("null")) {
		d.i += 4
		return true
	}
	return false
}

// object walks the members of an object, calling fn with each key (its
// quoted bytes unescaped) and the cursor on the value; fn must consume it.
func (d *Decoder) object(fn func(key []byte) *DecodeError) *DecodeError {
	if d.i >= len(d.b) || d.b[d.i] != '{' {
		return d.fail("want an object, got %s", d.describe())
	}
	if d.depth++; d.depth > maxDepth {
		return d.fail("nested too deeply")
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == '}' {
		d.i++
		d.depth--
		return nil
	}
	for {
		if d.i >= len(d.b) || d.b[d.i] != '"' {
			return d.fail("want a member name, got %s", d.describe())
		}
		key, err := d.rawString()
		if err != nil {
			return err
		}
		if d.space(); d.i >= len(d.b) || d.b[d.i] != ':' {
			return d.fail("want ':' after the member name, got %s", d.describe())
		}
		d.i++
		d.space()
		if err := fn(key); err != nil {
			return err
		}
		d.space()
		if d.i < len(d.b) && d.b[d.i] == ',' {
			d.i++
			d.space()
			continue
		}
		if d.i < len(d.b) && d.b[d.i] == '}' {
			d.i++
			d.depth--
			return nil
		}
		return d.fail("want ',' or '}' after a member, got %s", d.describe())
	}
}

// array walks the elements of an array (null is an empty list when
// nullOK), calling fn with the cursor on each; fn must consume it.
func (d *Decoder) array(fn func(i int) *DecodeError) *DecodeError {
	if d.i >= len(d.b) || d.b[d.i] != '[' {
		return d.fail("want an array, got %s", d.describe())
	}
	if d.depth++; d.depth > maxDepth {
		return d.fail("nested too deeply")
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		d.depth--
		return nil
	}
	for n := 0; ; n++ {
		if d.null() {
			return (&DecodeError{Offset: d.i - 4, Reason: "null is not allowed in this list"}).in("[" + strconv.Itoa(n) + "]")
		}
		if err := fn(n); err != nil {
			return err.in("[" + strconv.Itoa(n) + "]")
		}
		d.space()
		if d.i < len(d.b) && d.b[d.i] == ',' {
			d.i++
			d.space()
			continue
		}
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			d.depth--
			return nil
		}
		return d.fail("want ',' or ']' after an element, got %s", d.describe())
	}
}

// rawString consumes a string and returns its body: a slice of the input
// when it has no escapes, else a fresh unescaped copy.
func (d *Decoder) rawString() ([]byte, *DecodeError) {
	start := d.i + 1
	esc := false
	i := start
	for {
		if i >= len(d.b) {
			d.i = i
			return nil, d.fail("unterminated string")
		}
		c := d.b[i]
		switch {
		case c == '"':
			d.i = i + 1
			body := d.b[start:i]
			if esc {
				body = []byte(jsonscan.Unquote(body))
			}
			return body, nil
		case c == '\\':
			n := escapeLen(d.b[i:])
			if n == 0 {
				d.i = i
				return nil, d.fail("invalid escape in string")
			}
			esc = true
			i += n
		case c < 0x20:
			d.i = i
			return nil, d.fail("control character %#02x in string", c)
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRune(d.b[i:])
			if r == utf8.RuneError && n == 1 {
				d.i = i
				return nil, d.fail("invalid UTF-8 in string")
			}
			i += n
		}
	}
}

// escapeLen returns the length of the escape at the start of b, 0 when it
// is not a valid one.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		if len(b) < 6 {
			return 0
		}
		for _, c := range b[2:6] {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return 0
			}
		}
		return 6
	}
	return 0
}

// str decodes a string value (null is ""), copying it into the chunk.
func (d *Decoder) str() (string, *DecodeError) {
	if d.null() {
		return "", nil
	}
	if d.i >= len(d.b) || d.b[d.i] != '"' {
		return "", d.fail("want a string, got %s", d.describe())
	}
	body, err := d.rawString()
	if err != nil {
		return "", err
	}
	return d.keep(body), nil
}

// keep copies b into the current chunk and returns it as a string. A chunk
// is only appended to, so the strings over it never change.
func (d *Decoder) keep(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if cap(d.chunk)-len(d.chunk) < len(b) {
		d.chunk = make([]byte, 0, max(16<<10, len(b)))
	}
	start := len(d.chunk)
	d.chunk = append(d.chunk, b...)
	return unsafe.String(&d.chunk[start], len(b))
}

// integer decodes an integer value (null is 0) that fits in bits bits.
func (d *Decoder) integer() (int64, *DecodeError) {
	if d.null() {
		return 0, nil
	}
	start := d.i
	if d.i < len(d.b) && d.b[d.i] == '-' {
		d.i++
	}
	digits := d.i
	for d.i < len(d.b) && d.b[d.i] >= '0' && d.b[d.i] <= '9' {
		d.i++
	}
	lit := d.b[start:d.i]
	switch {
	case d.i == digits:
		d.i = start
		return 0, d.fail("want an integer, got %s", d.describe())
	case d.b[digits] == '0' && d.i-digits > 1:
		return 0, d.fail("a number with a leading zero")
	case d.i < len(d.b) && (d.b[d.i] == '.' || d.b[d.i] == 'e' || d.b[d.i] == 'E'):
		return 0, d.fail("want an integer, got a number with a fraction or exponent")
	}
	n, err := strconv.ParseInt(string(lit), 10, 64)
	if err != nil {
		return 0, d.fail("integer %s out of range", lit)
	}
	return n, nil
}

// boolean decodes true or false (null is false).
func (d *Decoder) boolean() (bool, *DecodeError) {
	switch {
	case d.null():
		return false, nil
	case bytes.HasPrefix(d.b[d.i:], []byte("true")):
		d.i += 4
		return true, nil
	case bytes.HasPrefix(d.b[d.i:], []byte("false")):
		d.i += 5
		return false, nil
	}
	return false, d.fail("want a boolean, got %s", d.describe())
}
