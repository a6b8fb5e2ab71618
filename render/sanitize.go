package render

import (
	"strings"
	"unicode/utf8"
)

// This file makes untrusted text safe to write to a terminal. Tool output,
// tool names, arguments and model text come from outside: an error message
// may carry colour codes, a file may hold an OSC 8 link or a title change.
// Sanitize runs before any width is measured, so what is counted is what is
// drawn.

// TabWidth is how many spaces a tab becomes.
const TabWidth = 4

// Sanitize returns s with every terminal control sequence removed or made
// visible, so that no byte of s can reach a terminal as a control:
//
//   - escape sequences are removed whole: CSI (ESC [ … final, and the C1
//     form U+009B), OSC (ESC ] … BEL or ST, including OSC 8 hyperlinks —
//     the link text stays — and window title changes), DCS, SOS, PM and
//     APC strings (ESC P, X, ^, _ … ST), and the two- and three-byte
//     escapes (ESC 7, ESC c, ESC ( B, …);
//   - a tab becomes TabWidth spaces; CR LF becomes LF and a lone CR a line
//     break (a progress bar's redraws become lines);
//   - any other C0 control and DEL is shown as its Unicode control picture
//     (U+2400 + code, ␡ for DEL), a lone ESC as ␛;
//   - other C1 controls (U+0080–U+009F) are removed;
//   - invalid UTF-8 becomes U+FFFD.
//
// LF is kept: callers split lines themselves. Text without any of these is
// returned unchanged, without allocating.
func Sanitize(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f || c == '\n' {
			b.WriteByte(c)
			i++
			continue
		}
		if c < 0x80 {
			i = control(&b, s, i)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
		case r >= 0x80 && r < 0xa0:
			i = c1(s, r, i+size)
			continue
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// clean reports whether s needs no change: valid UTF-8 without controls
// other than LF.
func clean(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f, c == '\n':
		case c < 0x80:
			return false
		case c == 0xc2 && i+1 < len(s) && s[i+1] < 0xa0:
			return false // U+0080–U+009F, or invalid
		}
	}
	return utf8.ValidString(s)
}

// control handles the C0 control or DEL at s[i] and returns the index after
// what it consumed.
func control(b *strings.Builder, s string, i int) int {
	switch c := s[i]; c {
	case '\t':
		b.WriteString("    "[:TabWidth])
	case '\r':
		if i+1 < len(s) && s[i+1] == '\n' {
			return i + 1 // the LF is written next
		}
		b.WriteByte('\n')
	case 0x1b:
		if end, ok := escape(s, i+1); ok {
			return end
		}
		b.WriteString("␛")
	case 0x7f:
		b.WriteString("␡")
	default:
		b.WriteRune(0x2400 + rune(c))
	}
	return i + 1
}

// escape parses the escape sequence whose ESC is just before s[i]; ok is
// false when ESC starts none (a lone ESC).
func escape(s string, i int) (end int, ok bool) {
	if i >= len(s) {
		return i, false
	}
	switch c := s[i]; {
	case c == '[':
		return csi(s, i+1), true
	case c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_':
		return stringEnd(s, i+1), true
	case c >= 0x20 && c <= 0x2f: // nF: intermediates, then a final byte
		for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
			i++
		}
		if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
			i++
		}
		return i, true
	case c >= 0x30 && c <= 0x7e: // Fp, Fe, Fs: one byte
		return i + 1, true
	}
	return i, false
}

// csi returns the index after a control sequence whose parameters start at
// s[i]: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final
// byte 0x40–0x7E. A malformed sequence ends at the first byte that cannot
// belong to it, which is kept.
func csi(s string, i int) int {
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// stringEnd returns the index after a control string (OSC, DCS, SOS, PM,
// APC) whose body starts at s[i]: it ends at BEL, ST (ESC \ or U+009C), or
// the end of s. Everything in between is dropped.
func stringEnd(s string, i int) int {
	for i < len(s) {
		switch {
		case s[i] == 0x07:
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c:
			return i + 2
		}
		i++
	}
	return i
}

// c1 handles the C1 control r whose encoding ends just before s[i]: CSI
// and the string introducers start sequences, the rest are dropped.
func c1(s string, r rune, i int) int {
	switch r {
	case 0x9b:
		return csi(s, i)
	case 0x9d, 0x90, 0x98, 0x9e, 0x9f:
		return stringEnd(s, i)
	}
	return i
}
