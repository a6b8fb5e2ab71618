package jsonscan

import (
	"bytes"
	"strconv"
)

// This file is a kit for hand-written struct decoders that must agree with
// encoding/json's Unmarshal: each helper decodes what it is sure to decode
// the same way and otherwise returns false, and the decoder then falls back
// on encoding/json for the whole value (so the unusual cases, and every
// error message, stay encoding/json's own).

// Key returns the name of a member's key literal (quotes included) when it
// is plain ASCII without escapes; ok is false otherwise (encoding/json
// would unescape it and could fold it onto a field name).
func Key(lit []byte) (name []byte, ok bool) {
	if len(lit) < 2 {
		return nil, false
	}
	name = lit[1 : len(lit)-1]
	for _, c := range name {
		if c == '\\' || c >= 0x80 {
			return nil, false
		}
	}
	return name, true
}

// Plain reports whether a struct decoder that knows the field names known
// can decode members without encoding/json: every key is plain (see Key),
// no key differs from a known name only in case (encoding/json matches
// names case-insensitively), and no known name is given twice (encoding/json
// merges a repeated object into the same field).
func Plain(members []Member, known ...string) bool {
	var seen uint64 // bit i: known[i] was given
	for _, m := range members {
		name, ok := Key(m.Key)
		if !ok {
			return false
		}
		for i, k := range known {
			switch {
			case string(name) == k:
				if seen&(1<<i) != 0 {
					return false
				}
				seen |= 1 << i
			case len(name) == len(k) && bytes.EqualFold(name, []byte(k)):
				return false
			}
		}
	}
	return len(known) <= 64
}

// StringInto stores a checked string value into dst; null leaves dst as
// it is. It returns false for other values.
func StringInto(val []byte, dst *string) bool {
	if IsNull(val) {
		return true
	}
	s, ok := String(val)
	if ok {
		*dst = s
	}
	return ok
}

// BoolInto stores a boolean value into dst; null leaves dst as it is. It
// returns false for other values.
func BoolInto(val []byte, dst *bool) bool {
	switch string(val) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	case "null":
	default:
		return false
	}
	return true
}

// IntInto stores an integral number value into dst; null leaves dst as it
// is. It returns false for other values, and for numbers written with a
// fraction or an exponent (encoding/json refuses those for an int).
func IntInto(val []byte, dst *int) bool {
	if IsNull(val) {
		return true
	}
	n, err := strconv.Atoi(string(val))
	if err != nil || len(val) == 0 || val[0] == '+' {
		return false
	}
	*dst = n
	return true
}

// IntPtrInto stores an integral number value into a new int at *dst; null
// sets *dst to nil. It returns false for other values.
func IntPtrInto(val []byte, dst **int) bool {
	if IsNull(val) {
		*dst = nil
		return true
	}
	var n int
	if !IntInto(val, &n) {
		return false
	}
	*dst = &n
	return true
}

// RawInto stores a copy of a checked value into dst, as encoding/json does
// for a json.RawMessage field (null included).
func RawInto(val []byte, dst *[]byte) {
	*dst = append((*dst)[:0], val...)
}

// IsNull reports whether val is the literal null.
func IsNull(val []byte) bool { return string(val) == "null" }

// ObjectMembers returns the members of a well-formed value (a member of
// a checked object, see CheckedMembers) when it is an object; ok is false
// for other values; null gives no members and null=true.
func ObjectMembers(val []byte, buf []Member) (members []Member, null, ok bool) {
	if IsNull(val) {
		return buf, true, true
	}
	if len(val) == 0 || val[0] != '{' {
		return buf, false, false
	}
	return CheckedMembers(val, buf), false, true
}

// TopObject checks b like Object and returns its members when b holds one
// object (white space around it allowed); ok is false otherwise, null
// included.
func TopObject(b []byte, buf []Member) (members []Member, ok bool) {
	if i := SkipSpace(b, 0); i >= len(b) || b[i] != '{' {
		return buf, false
	}
	members, err := Object(b, buf)
	return members, err == nil
}

// StringPtrInto stores a checked string value into a new string at *dst;
// null sets *dst to nil. It returns false for other values.
func StringPtrInto(val []byte, dst **string) bool {
	if IsNull(val) {
		*dst = nil
		return true
	}
	s, ok := String(val)
	if ok {
		*dst = &s
	}
	return ok
}

// Int64PtrInto stores an integral number value into a new int64 at *dst;
// null sets *dst to nil. It returns false for other values.
func Int64PtrInto(val []byte, dst **int64) bool {
	if IsNull(val) {
		*dst = nil
		return true
	}
	n, err := strconv.ParseInt(string(val), 10, 64)
	if err != nil || len(val) == 0 || val[0] == '+' {
		return false
	}
	*dst = &n
	return true
}

// Float64PtrInto stores a number value into a new float64 at *dst, parsed
// as encoding/json parses it; null sets *dst to nil. It returns false for
// other values.
func Float64PtrInto(val []byte, dst **float64) bool {
	if IsNull(val) {
		*dst = nil
		return true
	}
	if len(val) == 0 || val[0] != '-' && (val[0] < '0' || val[0] > '9') {
		return false
	}
	f, err := strconv.ParseFloat(string(val), 64)
	if err != nil {
		return false
	}
	*dst = &f
	return true
}

// List decodes an array value into a slice as json.Unmarshal does: null
// gives nil, a null element the zero value, and elem decodes every other
// element (false: give up, as every helper here does).
func List[T any](val []byte, dst *[]T, elem func([]byte, *T) bool) bool {
	if IsNull(val) {
		*dst = nil
		return true
	}
	if len(val) == 0 || val[0] != '[' {
		return false
	}
	elems, err := Array(val, nil)
	if err != nil {
		return false
	}
	out := make([]T, len(elems))
	for i, e := range elems {
		if !IsNull(e) && !elem(e, &out[i]) {
			return false
		}
	}
	*dst = out
	return true
}
