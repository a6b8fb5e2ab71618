package event

import (
	"bytes"
	"unicode/utf8"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// decoder holds the per-reader scratch space for decoding lines.
type decoder struct {
	js      JSON
	members []jsonscan.Member
	buf     bytes.Buffer
	arena   arena // backs the strings and raw members of decoded events
}

// parseLine checks a line and splits it into members. It reports whether the
// line is a header (it has a "trace" member).
func (d *decoder) parseLine(line []byte) (isHeader bool, err error) {
	var serr *jsonscan.SyntaxError
	d.members, serr = jsonscan.Object(line, d.members[:0])
	switch {
	case serr != nil && !serr.BadUTF8 && !utf8.Valid(line):
		// Report bad encoding before bad syntax, wherever it is.
		return false, lineError("", "invalid UTF-8 at byte offset %d", invalidUTF8Offset(line))
	case serr != nil && serr.BadUTF8:
		return false, lineError("", "invalid UTF-8 at byte offset %d", serr.Offset)
	case serr != nil:
		return false, &DecodeError{Reason: "malformed JSON: " + serr.Error(), Err: serr}
	}
	if trimmed := bytes.TrimSpace(line); trimmed[0] != '{' {
		return false, lineError("", "want a JSON object, got %s", jsonscan.Describe(trimmed))
	}
	for _, m := range d.members {
		if string(m.Key) == `"trace"` {
			return true, nil
		}
	}
	return false, nil
}

func invalidUTF8Offset(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

// key decodes a member's key.
func (d *decoder) key(m jsonscan.Member) (string, error) {
	return d.str("", m.Key)
}

// str decodes a JSON string value, copying it out of the line buffer.
func (d *decoder) str(name string, val []byte) (string, error) {
	if len(val) < 2 || val[0] != '"' {
		return "", lineError(name, "want a string, got %s", jsonscan.Describe(val))
	}
	return d.arena.stringValue(val, jsonscan.Unquote), nil
}

// kind decodes the kind member, without allocating for the known kinds.
func (d *decoder) kind(val []byte) (Kind, error) {
	if len(val) >= 2 && val[0] == '"' {
		if k := knownKind(val[1 : len(val)-1]); k != "" {
			return k, nil
		}
	}
	s, err := d.str("kind", val)
	if err == nil && s == "" {
		err = lineError("kind", "must not be empty")
	}
	return Kind(s), err
}

// MaxInt bounds every integer of a trace (seq, t, duration_ms, seed):
// values are below 10^18, so they fit an int64 with room to add.
const MaxInt = 1_000_000_000_000_000_000

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// integer decodes a JSON integer; min is the smallest accepted value.
func integer(name string, val []byte, min int64) (int64, error) {
	neg := len(val) > 0 && val[0] == '-'
	digits := val
	if neg {
		digits = val[1:]
	}
	if len(digits) == 0 {
		return 0, lineError(name, "want an integer, got %s", jsonscan.Describe(val))
	}
	if len(digits) > 18 && isDigits(digits) {
		return 0, lineError(name, "must be below %d (at most 18 digits), got %s", MaxInt, val)
	}
	if len(digits) > 18 {
		return 0, lineError(name, "want an integer, got %s", jsonscan.Describe(val))
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, lineError(name, "want an integer, got %s", jsonscan.Describe(val))
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	if n < min {
		return 0, lineError(name, "must be at least %d, got %d", min, n)
	}
	return n, nil
}

func boolean(name string, val []byte) (bool, error) {
	switch string(val) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, lineError(name, "want a boolean, got %s", jsonscan.Describe(val))
}

// object copies a raw JSON object value, compacted.
func (d *decoder) object(name string, val []byte) ([]byte, error) {
	if len(val) == 0 || val[0] != '{' {
		return nil, lineError(name, "want an object, got %s", jsonscan.Describe(val))
	}
	return d.raw(val)
}

// raw copies a raw JSON value, compacted.
func (d *decoder) raw(val []byte) ([]byte, error) {
	if !jsonscan.HasSpace(val) {
		return d.arena.bytes(val), nil
	}
	d.buf.Reset()
	if err := d.js.Compact(&d.buf, val); err != nil {
		return nil, err
	}
	return d.arena.bytes(d.buf.Bytes()), nil
}

// decodeEvent fills ev from the members of the current line.
func (d *decoder) decodeEvent(ev *Event) error {
	*ev = Event{}
	var have struct{ seq, t, kind bool }
	for _, m := range d.members {
		var err error
		var dup bool
		switch string(m.Key) {
		case `"seq"`:
			ev.Seq, err = integer("seq", m.Val, 1)
			dup, have.seq = have.seq, true
		case `"t"`:
			ev.T, err = integer("t", m.Val, 0)
			dup, have.t = have.t, true
		case `"kind"`:
			ev.Kind, err = d.kind(m.Val)
			dup, have.kind = have.kind, true
		}
		if dup {
			return lineError(string(m.Key[1:len(m.Key)-1]), "appears twice")
		}
		if err != nil {
			return err
		}
	}
	switch {
	case !have.seq:
		return lineError("seq", "missing required field")
	case !have.t:
		return lineError("t", "missing required field")
	case !have.kind:
		return lineError("kind", "missing required field")
	}
	return d.decodeFields(ev)
}

// decodeFields decodes the kind-specific members and keeps the rest.
func (d *decoder) decodeFields(ev *Event) error {
	spec := specOf(ev.Kind)
	var seen field
	for _, m := range d.members {
		raw := m.Key[1 : len(m.Key)-1]
		switch string(raw) {
		case "seq", "t", "kind":
			continue
		}
		f := fieldByName(raw)
		if f == 0 || spec.allowed&f == 0 {
			name, err := d.key(m)
			if err != nil {
				return err
			}
			if err := d.extra(&ev.Extra, name, m.Val); err != nil {
				return err
			}
			continue
		}
		if seen&f != 0 {
			return lineError(f.String(), "appears twice")
		}
		seen |= f
		if err := d.setField(ev, f, m.Val); err != nil {
			return err
		}
	}
	if missing := spec.required &^ seen; missing != 0 {
		return lineError(lowestField(missing).String(), "missing required field for kind %s", quote(string(ev.Kind)))
	}
	return nil
}

func lowestField(set field) field { return set & -set }

func (d *decoder) extra(dst *[]Field, name string, val []byte) error {
	for _, f := range *dst {
		if f.Key == name {
			return lineError(name, "appears twice")
		}
	}
	raw, err := d.raw(val)
	if err != nil {
		return &DecodeError{Field: name, Reason: err.Error(), Err: err}
	}
	*dst = append(*dst, Field{Key: name, Value: raw})
	return nil
}

// setField decodes one known member into ev.
func (d *decoder) setField(ev *Event, f field, val []byte) error {
	name := f.String()
	var err error
	switch f {
	case fRole:
		ev.Role, err = d.enum(name, val, RoleAssistant, RoleUser)
	case fState:
		ev.State, err = d.enum(name, val, PermissionAsked, PermissionGranted, PermissionDenied)
	case fArgs:
		ev.Args, err = d.object(name, val)
	case fDetails:
		ev.Details, err = d.object(name, val)
	case fOK:
		ev.OK, err = boolean(name, val)
	case fDuration:
		var n int64
		n, err = integer(name, val, 0)
		ev.DurationMS = &n
	default:
		var s string
		s, err = d.str(name, val)
		*stringField(ev, f) = s
	}
	return err
}

// stringField returns the address of a plain string field of ev.
func stringField(ev *Event, f field) *string {
	switch f {
	case fText:
		return &ev.Text
	case fID:
		return &ev.ID
	case fName:
		return &ev.Name
	case fBatch:
		return &ev.Batch
	case fParent:
		return &ev.Parent
	case fOutput:
		return &ev.Output
	case fError:
		return &ev.Error
	case fReason:
		return &ev.Reason
	default:
		return &ev.Message
	}
}

func (d *decoder) enum(name string, val []byte, allowed ...string) (string, error) {
	s, err := d.str(name, val)
	if err != nil {
		return "", err
	}
	for _, a := range allowed {
		if s == a {
			return s, nil
		}
	}
	return "", lineError(name, "want one of %v, got %s", allowed, quote(s))
}

// decodeHeader fills h from the members of the current line.
func (d *decoder) decodeHeader(h *Header) error {
	*h = Header{}
	for _, m := range d.members {
		name, err := d.key(m)
		if err != nil {
			return err
		}
		switch name {
		case "trace":
			h.Trace, err = d.str(name, m.Val)
			if err == nil && h.Trace != Version {
				err = lineError(name, "unsupported trace version %s (this toolsim reads %s)", quote(h.Trace), Version)
			}
		case "source":
			h.Source, err = d.str(name, m.Val)
		case "seed":
			var n int64
			n, err = integer(name, m.Val, -1<<62)
			h.Seed = &n
		case "meta":
			h.Meta, err = d.object(name, m.Val)
		default:
			err = d.extra(&h.Extra, name, m.Val)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
