package view

import (
	"strings"
	"unicode/utf8"
)

// lineTable holds the distinct lines of every render. A line that differs
// from the line it replaces only in the middle (a running tool's elapsed
// time, a growing counter) is stored as an edit of it:
// [base id, prefix length, suffix length, middle], lengths in UTF-16 code
// units as JavaScript counts them.
type lineTable struct {
	ids  map[string]int
	strs []string
	out  []any
}

func newLineTable() lineTable { return lineTable{ids: map[string]int{}} }

// item returns the line ids of an item's text; prev are the ids of the
// text it replaces, used as edit bases.
func (t *lineTable) item(text string, prev []int) []int {
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return []int{}
	}
	parts := strings.Split(text, "\n")
	ids := make([]int, len(parts))
	for j, s := range parts {
		base := -1
		if j < len(prev) {
			base = prev[j]
		}
		ids[j] = t.id(Clean(s), base)
	}
	return ids
}

// id returns the id of line s, adding it (as an edit of base when that is
// shorter) when new.
func (t *lineTable) id(s string, base int) int {
	if id, ok := t.ids[s]; ok {
		return id
	}
	id := len(t.strs)
	t.ids[s] = id
	t.strs = append(t.strs, s)
	t.out = append(t.out, t.code(s, base))
	return id
}

// code is how line s is stored: whole, or as an edit of line base.
func (t *lineTable) code(s string, base int) any {
	if base < 0 || len(s) < 24 {
		return s
	}
	b := t.strs[base]
	p := commonPrefix(s, b)
	q := commonSuffix(s[p:], b[p:])
	mid := s[p : len(s)-q]
	if len(mid)+24 >= len(s) {
		return s
	}
	return []any{base, utf16Len(s[:p]), utf16Len(s[len(s)-q:]), mid}
}

// commonPrefix is the length in bytes of the longest common prefix of a
// and b that ends on a rune boundary.
func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && !utf8.RuneStart(a[i]) {
		i--
	}
	return i
}

// commonSuffix is the length in bytes of the longest common suffix of a
// and b that starts on a rune boundary.
func commonSuffix(a, b string) int {
	n := min(len(a), len(b))
	i := 0
	for i < n && a[len(a)-1-i] == b[len(b)-1-i] {
		i++
	}
	for i > 0 && !utf8.RuneStart(a[len(a)-i]) {
		i--
	}
	return i
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}
