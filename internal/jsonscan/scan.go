package jsonscan

// Member is one top-level member of an object, as the validator found it:
// the key literal (quotes included) and the raw value, both slices of the
// input.
type Member struct {
	Key, Val []byte
}

// IsSpace reports whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// SkipSpace returns the index of the first non-space byte at or after i.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// HasSpace reports whether raw JSON may need compaction.
func HasSpace(b []byte) bool {
	for _, c := range b {
		if IsSpace(c) {
			return true
		}
	}
	return false
}

// Describe names the JSON type of a raw value for error messages.
func Describe(val []byte) string {
	if len(val) == 0 {
		return "nothing"
	}
	switch c := val[0]; {
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
	default:
		return "the number " + string(val)
	}
}
