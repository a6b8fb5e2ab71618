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
const narrowGlyphs = "▶✓✗⚠⊘?⫘│▸…∴○◌✕─·"

// width returns the display width of s in terminal cells. Strings made of
// printable ASCII, Latin-1 letters and the renderer's glyphs are counted
// rune by rune; anything else goes through grapheme segmentation.
func width(s string) int {
	n := 0
	for _, r := range s {
		switch {
		case r >= 0x20 && r < 0x7f, r >= 0xa0 && r < 0x300:
			n++
		case r > 0x2000 && strings.ContainsRune(narrowGlyphs, r):
			n++
		default:
			return uniseg.StringWidth(s)
		}
	}
	return n
}

// fit returns s cut to at most w cells, ending in … when it was cut.
func fit(s string, w int) string {
	if width(s) <= w {
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

// padRight pads s with spaces to w cells.
func padRight(s string, w int) string {
	if n := w - width(s); n > 0 {
		return s + strings.Repeat(" ", n)
	}
	return s
}

// padLeft right-aligns s in w cells.
func padLeft(s string, w int) string {
	if n := w - width(s); n > 0 {
		return strings.Repeat(" ", n) + s
	}
	return s
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
