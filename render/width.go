package render

import (
	"strings"

	"github.com/rivo/uniseg"
)

// This file measures and cuts text by display width, one grapheme cluster
// at a time.

const ellipsis = "…"

// Width returns the display width of s in terminal cells.
func Width(s string) int { return width(s) }

// narrowGlyphs are the non-ASCII runes the renderer itself draws; each is
// one cell wide (TestNarrowGlyphs checks that against uniseg).
const narrowGlyphs = "▶✓✗⚠⊘⫘│▸…∴○◌✕─⋯≡"

// isGlyph reports whether r is one of narrowGlyphs.
func isGlyph(r rune) bool {
	switch r {
	case '▶', '✓', '✗', '⚠', '⊘', '⫘', '│', '▸', '…', '∴', '○', '◌', '✕', '─', '⋯', '≡':
		return true
	}
	return false
}

// width returns the display width of s in terminal cells. Strings made of
// printable ASCII, Latin-1 letters and the renderer's glyphs are counted
// rune by rune; anything else goes through grapheme segmentation.
func width(s string) int {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] < 0x7f {
		i++ // printable ASCII: a cell a byte, without decoding runes
	}
	if i == len(s) {
		return i
	}
	n := i
	for _, r := range s[i:] {
		switch {
		case r >= 0x20 && r < 0x7f, r >= 0xa0 && r < 0x300:
			n++
		case r > 0x2000 && isGlyph(r):
			n++
		default:
			return uniseg.StringWidth(s)
		}
	}
	return n
}

// Fit returns s cut to at most w cells, ending in … when it was cut.
func Fit(s string, w int) string { return fit(s, w) }

// fit returns s cut to at most w cells, ending in … when it was cut.
func fit(s string, w int) string {
	// No character is wider in cells than in UTF-8 bytes, so a string of at
	// most w bytes fits without being measured.
	if len(s) <= w || width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		cw := g.Width()
		if used+cw > w-1 {
			break
		}
		b.WriteString(g.Str())
		used += cw
	}
	return strings.TrimRight(b.String(), " ") + ellipsis
}

// spaces is a run of blanks to pad from without allocating.
const spaces = "                                                                "

// appendSpaces appends n blanks.
func appendSpaces(b []byte, n int) []byte {
	for n > 0 {
		k := min(n, len(spaces))
		b = append(b, spaces[:k]...)
		n -= k
	}
	return b
}

// padRight pads s with spaces to w cells.
func padRight(s string, w int) string {
	if n := w - width(s); n > 0 {
		return string(appendSpaces([]byte(s), n))
	}
	return s
}

// appendPadRight appends s padded with spaces to w cells.
func appendPadRight(b []byte, s string, w int) []byte {
	return appendSpaces(append(b, s...), w-width(s))
}

// appendPadLeft appends s right-aligned in w cells.
func appendPadLeft(b []byte, s string, w int) []byte {
	return append(appendSpaces(b, w-width(s)), s...)
}

// wrap breaks s into lines of at most w cells, at spaces where it can and
// between grapheme clusters where a word is longer than a line.
func wrap(s string, w int) []string {
	if w < 1 {
		w = 1
	}
	if width(s) <= w {
		return []string{s}
	}
	var lines []string
	var cur strings.Builder
	used := 0
	flush := func() {
		lines = append(lines, strings.TrimRight(cur.String(), " "))
		cur.Reset()
		used = 0
	}
	for _, word := range strings.SplitAfter(s, " ") {
		ww := width(strings.TrimRight(word, " "))
		if used > 0 && used+ww > w {
			flush()
		}
		if ww > w {
			used = breakWord(&cur, word, w, used, flush)
			continue
		}
		cur.WriteString(word)
		used += width(word)
	}
	if cur.Len() > 0 || len(lines) == 0 {
		flush()
	}
	return lines
}

// breakWord writes a word longer than a line cluster by cluster.
func breakWord(cur *strings.Builder, word string, w, used int, flush func()) int {
	g := uniseg.NewGraphemes(word)
	for g.Next() {
		cw := g.Width()
		if used+cw > w && used > 0 {
			flush()
			used = 0
		}
		cur.WriteString(g.Str())
		used += cw
	}
	return used
}

// splitLines splits text into lines, dropping one trailing newline.
func splitLines(s string) []string {
	s = strings.TrimSuffix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	return strings.Split(s, "\n")
}
