package view

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Clean returns s with every character that could act on a terminal or
// reorder text made visible: C0 controls other than newline and tab become
// their Unicode control pictures (ESC shows as ␛, so a colour sequence
// reads ␛[31m), DEL becomes ␡, and C1 controls, bidirectional overrides,
// line and paragraph separators and invalid UTF-8 become ⟨U+XXXX⟩ (⟨bad
// byte⟩ for invalid bytes). The page shows strings as text, never as
// markup; Clean only keeps what a terminal would have acted on visible.
//
// It is the one place the page sanitises trace text: swap it for the
// render package's sanitizer once that exists.
func Clean(s string) string {
	if !needsClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, "⟨bad byte %02X⟩", s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune('␡')
		case hidden(r):
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// needsClean reports whether Clean would change s.
func needsClean(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && n == 1) || hidden(r) {
			return true
		}
		i += n
	}
	return false
}

// hidden reports the non-ASCII runes Clean spells out: C1 controls, bidi
// embeddings, overrides and isolates, and line/paragraph separators.
func hidden(r rune) bool {
	switch {
	case r >= 0x80 && r < 0xa0:
		return true
	case r == 0x200e || r == 0x200f || r == 0x061c:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r == 0x2028 || r == 0x2029:
		return true
	}
	return false
}
