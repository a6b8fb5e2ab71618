package event

// member is one top-level member of a line, as the validator found it: the
// key literal (quotes included) and the raw value, both slices of the line.
type member struct {
	key, val []byte
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// hasSpace reports whether raw JSON may need compaction.
func hasSpace(b []byte) bool {
	for _, c := range b {
		if isSpace(c) {
			return true
		}
	}
	return false
}

// describe names the JSON type of a raw value for error messages.
func describe(val []byte) string {
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
