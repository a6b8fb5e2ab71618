package jsonscan

import "bytes"

// AppendCompact appends b, a value that passed Check, to dst without the
// white space outside strings, as encoding/json's Compact does.
func AppendCompact(dst, b []byte) []byte {
	if !HasSpace(b) {
		return append(dst, b...)
	}
	for i := 0; i < len(b); {
		switch c := b[i]; {
		case IsSpace(c):
			i++
		case c == '"':
			end := stringEnd(b, i)
			dst = append(dst, b[i:end]...)
			i = end
		default:
			j := i + 1
			for j < len(b) && b[j] != '"' && !IsSpace(b[j]) {
				j++
			}
			dst = append(dst, b[i:j]...)
			i = j
		}
	}
	return dst
}

// stringEnd returns the index after the checked string literal whose
// opening quote is at i.
func stringEnd(b []byte, i int) int {
	for i++; ; {
		// Two byte searches beat one search for either byte: IndexAny
		// builds its set on every call, and strings here are short.
		k := bytes.IndexByte(b[i:], '"')
		if k < 0 {
			return len(b)
		}
		esc := bytes.IndexByte(b[i:i+k], '\\')
		if esc < 0 {
			return i + k + 1
		}
		i += esc + 2 // an escape: the byte after the backslash is never the end
	}
}

// Compact returns a compacted copy of b when it holds one well-formed
// JSON value in UTF-8; ok is false otherwise (and encoding/json, which lets
// bytes that are not UTF-8 through, decides).
func Compact(b []byte) (out []byte, ok bool) {
	if Check(b) != nil {
		return nil, false
	}
	return AppendCompact(make([]byte, 0, len(b)), b), true
}
