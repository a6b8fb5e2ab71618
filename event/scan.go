package event

// This file walks the members of a JSON object that has already passed the
// syntax check, without building any intermediate value.

// member is one top-level member of a line: the key literal (quotes
// included) and the raw value.
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

// skipString returns the index just after the string literal starting at i.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index just after the JSON value starting at i.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !isSpace(b[i]) {
		i++
	}
	return i
}

// objectMembers appends the members of the well-formed JSON object in b to
// dst. ok is false when b is not an object.
func objectMembers(dst []member, b []byte) (_ []member, ok bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return dst, false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return dst, true
	}
	for i < len(b) {
		ks := i
		i = skipString(b, i)
		key := b[ks:i]
		i = skipSpace(b, i) + 1 // the colon
		i = skipSpace(b, i)
		vs := i
		i = skipValue(b, i)
		dst = append(dst, member{key: key, val: b[vs:i]})
		i = skipSpace(b, i)
		if i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
			continue
		}
		break
	}
	return dst, true
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
