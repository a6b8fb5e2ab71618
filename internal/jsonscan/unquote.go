package jsonscan

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes the body of a JSON string literal (quotes removed) whose
// escapes are well-formed: it passed Check, or a scanner that checks
// escapes but not UTF-8. Lone surrogates and bytes that are not UTF-8
// become U+FFFD, as encoding/json does.
func Unquote(body []byte) string {
	if bytes.IndexByte(body, '\\') < 0 {
		return utf8String(body)
	}
	s := unescape(body)
	if utf8.ValidString(s) {
		return s
	}
	return utf8String([]byte(s))
}

// String decodes a JSON string value (quotes included) as Unquote does.
// ok is false when val is not a string.
func String(val []byte) (s string, ok bool) {
	if len(val) < 2 || val[0] != '"' {
		return "", false
	}
	return Unquote(val[1 : len(val)-1]), true
}

// utf8String converts b, replacing each byte that is not UTF-8 with
// U+FFFD.
func utf8String(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
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

// unescape decodes the escapes of a string's body into one allocation.
func unescape(in []byte) string {
	var b strings.Builder
	b.Grow(len(in))
	for i := 0; i < len(in); {
		if in[i] != '\\' {
			j := bytes.IndexByte(in[i:], '\\')
			if j < 0 {
				j = len(in) - i
			}
			b.Write(in[i : i+j])
			i += j
			continue
		}
		i = writeEscape(&b, in, i)
	}
	return b.String()
}

// writeEscape writes what the escape at in[i] stands for and returns the
// index after the escape.
func writeEscape(b *strings.Builder, in []byte, i int) int {
	switch c := in[i+1]; c {
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, next := unicodeEscape(in, i)
		b.WriteRune(r)
		return next
	default: // '"', '\\', '/'
		b.WriteByte(c)
	}
	return i + 2
}

// unicodeEscape decodes the \uXXXX escape at in[i], joined with the low
// surrogate escape that follows a high one (U+FFFD for a lone surrogate),
// and returns the index after the escapes it used.
func unicodeEscape(in []byte, i int) (rune, int) {
	r := hex4(in[i+2 : i+6])
	i += 6
	if utf16.IsSurrogate(r) {
		r2 := rune(-1)
		if i+6 <= len(in) && in[i] == '\\' && in[i+1] == 'u' {
			r2 = hex4(in[i+2 : i+6])
		}
		if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
			return dec, i + 6
		}
		return utf8.RuneError, i
	}
	return r, i
}

// hex4 decodes four hex digits (already checked).
func hex4(b []byte) rune {
	var r rune
	for _, c := range b {
		switch {
		case c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a':
			r = r<<4 | rune(c-'a'+10)
		default:
			r = r<<4 | rune(c-'A'+10)
		}
	}
	return r
}
