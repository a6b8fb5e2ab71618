package jsonscan

// Splitting values that are already known to be well-formed JSON (a
// member of an object that passed Check, or a json.RawMessage that
// encoding/json produced): no validation, so a nested object costs one
// quick pass instead of a second check.

// CheckedMembers appends the members of val, a well-formed JSON object,
// to buf. It must not be given anything else.
func CheckedMembers(val []byte, buf []Member) []Member {
	i := SkipSpace(val, 1)
	for i < len(val) && val[i] == '"' {
		ke := stringEnd(val, i)
		vs := SkipSpace(val, SkipSpace(val, ke)+1) // past the ':'
		ve := valueEnd(val, vs)
		buf = append(buf, Member{Key: val[i:ke], Val: val[vs:ve]})
		i = SkipSpace(val, ve)
		if i < len(val) && val[i] == ',' {
			i = SkipSpace(val, i+1)
		}
	}
	return buf
}

// ValueEnd returns the index after the well-formed value at b[i]: a
// value that already passed a check (it must not be given anything else).
func ValueEnd(b []byte, i int) int { return valueEnd(b, i) }

// valueEnd returns the index after the well-formed value at i.
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = stringEnd(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && !IsSpace(b[i]) {
		i++
	}
	return i
}

// CheckedElements appends the elements of val, a well-formed JSON array,
// to buf. It must not be given anything else.
func CheckedElements(val []byte, buf [][]byte) [][]byte {
	i := SkipSpace(val, 1)
	for i < len(val) && val[i] != ']' {
		end := valueEnd(val, i)
		buf = append(buf, val[i:end])
		i = SkipSpace(val, end)
		if i < len(val) && val[i] == ',' {
			i = SkipSpace(val, i+1)
		}
	}
	return buf
}
