package claudetranscript

import (
	"bytes"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// str decodes a validated JSON string value; other values give "".
func str(val []byte) string {
	if len(val) < 2 || val[0] != '"' {
		return ""
	}
	in := val[1 : len(val)-1]
	if bytes.IndexByte(in, '\\') < 0 {
		if utf8.Valid(in) {
			return string(in)
		}
		return fixUTF8(in)
	}
	out := unescape(in)
	if !utf8.Valid(out) {
		return fixUTF8(out)
	}
	return string(out)
}

// unescape decodes the escapes of a validated string's contents (between
// the quotes).
func unescape(in []byte) []byte {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		if c != '\\' {
			j := i + 1
			for j < len(in) && in[j] != '\\' {
				j++
			}
			out = append(out, in[i:j]...)
			i = j
			continue
		}
		out, i = appendEscape(out, in, i)
	}
	return out
}

// appendEscape appends what the escape at in[i] stands for and returns
// the index after the escape.
func appendEscape(out, in []byte, i int) ([]byte, int) {
	switch in[i+1] {
	case 'b':
		out = append(out, '\b')
	case 'f':
		out = append(out, '\f')
	case 'n':
		out = append(out, '\n')
	case 'r':
		out = append(out, '\r')
	case 't':
		out = append(out, '\t')
	case 'u':
		r, next := unicodeEscape(in, i)
		return utf8.AppendRune(out, r), next
	default: // '"', '\\', '/'
		out = append(out, in[i+1])
	}
	return out, i + 2
}

// unicodeEscape decodes the \uXXXX escape at in[i], joined with the low
// surrogate escape that follows a high one (U+FFFD for a lone surrogate),
// and returns the index after the escapes it used.
func unicodeEscape(in []byte, i int) (rune, int) {
	r := hex4(in[i+2:])
	i += 6
	if utf16.IsSurrogate(r) {
		r2 := rune(-1)
		if i+6 <= len(in) && in[i] == '\\' && in[i+1] == 'u' {
			r2 = hex4(in[i+2:])
		}
		if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
			i += 6
			r = dec
		} else {
			r = utf8.RuneError
		}
	}
	return r, i
}

// fixUTF8 replaces each invalid byte with U+FFFD, as encoding/json does.
func fixUTF8(b []byte) string {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return string(out)
}

// hex4 decodes four hex digits.
func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		r = r<<4 | rune(hexVal(c))
	}
	return r
}

// isTrue reports whether val is the literal true.
func isTrue(val []byte) bool { return string(val) == "true" }

// isNull reports whether val is the literal null.
func isNull(val []byte) bool { return string(val) == "null" }

// integer decodes a non-negative integral number value.
func integer(val []byte) (int64, bool) {
	if len(val) == 0 || val[0] < '0' || val[0] > '9' {
		return 0, false
	}
	if n, err := strconv.ParseInt(string(val), 10, 64); err == nil {
		return n, true
	}
	f, err := strconv.ParseFloat(string(val), 64)
	if err != nil || f < 0 || f > 1<<53 {
		return 0, false
	}
	return int64(f), true
}
