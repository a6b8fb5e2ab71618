package jsonscan

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Unquote decodes the body of a JSON string literal (quotes removed) that
// has already passed Check, so every escape is well-formed. Lone
// surrogates become U+FFFD, as encoding/json does.
func Unquote(body []byte) string {
	var b strings.Builder
	b.Grow(len(body))
	for i := 0; i < len(body); i++ {
		j := i
		for j < len(body) && body[j] != '\\' {
			j++
		}
		b.Write(body[i:j])
		if i = j; i >= len(body) {
			break
		}
		i++
		var r rune
		switch body[i] {
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'u':
			r, i = unicodeEscape(body, i)
		default: // " \ /
			r = rune(body[i])
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unicodeEscape decodes the \uXXXX escape whose 'u' is at i, joining a
// surrogate pair when one follows. It returns the rune and the index of the
// escape's last byte.
func unicodeEscape(body []byte, i int) (rune, int) {
	r := hex4(body[i+1 : i+5])
	i += 4
	if !utf16.IsSurrogate(r) {
		return r, i
	}
	if i+6 < len(body) && body[i+1] == '\\' && body[i+2] == 'u' {
		if pair := utf16.DecodeRune(r, hex4(body[i+3:i+7])); pair != utf8.RuneError {
			return pair, i + 6
		}
	}
	return utf8.RuneError, i
}

func hex4(b []byte) rune {
	n, _ := strconv.ParseUint(string(b), 16, 32)
	return rune(n)
}

// String decodes a checked JSON string value (quotes included). ok is false
// when val is not a string.
func String(val []byte) (s string, ok bool) {
	if len(val) < 2 || val[0] != '"' {
		return "", false
	}
	inner := val[1 : len(val)-1]
	if bytes.IndexByte(inner, '\\') >= 0 {
		return Unquote(inner), true
	}
	return string(inner), true
}
