package tui

import (
	"strings"

	"github.com/rivo/uniseg"
	"github.com/toolsim/toolsim/render"
)

// This file fits plain text into cells. Styling comes after fitting, so
// no escape sequence is ever measured or cut.

// sanitize removes escape sequences and makes controls visible
// (render.Sanitize), then shows what is left that would move the cursor —
// line breaks — as a visible dot.
func sanitize(s string) string {
	s = render.Sanitize(s)
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return '·'
		}
		return r
	}, s)
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }

// cut returns s cut to at most w cells, ending in … when it was cut.
func cut(s string, w int) string {
	if len(s) <= w || render.Width(s) <= w {
		return s
	}
	if w <= 0 {
		return ""
	}
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		if used+g.Width() > w-1 {
			break
		}
		b.WriteString(g.Str())
		used += g.Width()
	}
	return b.String() + "…"
}

// pad returns spaces that fill s (already fitted) to w cells.
func pad(s string, w int) string {
	return strings.Repeat(" ", max(0, w-render.Width(s)))
}

// cell fits plain text to exactly w cells.
func cell(s string, w int) string {
	s = cut(sanitize(s), w)
	return s + pad(s, w)
}

// hardWrap breaks s into lines of at most w cells, between grapheme
// clusters.
func hardWrap(s string, w int) []string {
	s = sanitize(s)
	var out []string
	var b strings.Builder
	used := 0
	g := uniseg.NewGraphemes(s)
	for g.Next() {
		if used+g.Width() > w && used > 0 {
			out = append(out, b.String())
			b.Reset()
			used = 0
		}
		b.WriteString(g.Str())
		used += g.Width()
	}
	return append(out, b.String())
}

// rule is a pane title line: "─ title ───…" over w cells, with an
// optional corner glyph first.
func rule(title string, w int) string {
	s := "─ " + title + " "
	if render.Width(s) > w {
		return cut(s, w)
	}
	return s + strings.Repeat("─", w-render.Width(s))
}

// wordWrap breaks s into lines of at most w cells at spaces, and inside
// words longer than a line.
func wordWrap(s string, w int) []string {
	var out []string
	line := ""
	for _, word := range strings.Fields(sanitize(s)) {
		switch {
		case line == "":
			line = word
		case render.Width(line)+1+render.Width(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
		if render.Width(line) > w {
			parts := hardWrap(line, w)
			out = append(out, parts[:len(parts)-1]...)
			line = parts[len(parts)-1]
		}
	}
	return append(out, line)
}
