package render

import (
	"strings"
	"sync"

	"github.com/toolsim/toolsim/timeline"
)

// DefaultWidth is the width used when Options.Width is 0.
const DefaultWidth = 80

// Options configure rendering.
type Options struct {
	Width  int  // terminal width in cells; DefaultWidth if 0
	Output bool // show output snippets under tools (seed 002)

	// Ended says the input is over: a tool still live will never finish,
	// so it shows the unfinished mark (UnfinishedGlyph) instead of a
	// running glyph and elapsed time, and the render ends with a legend.
	Ended bool
	// SyntheticClock says the trace's clock counts events, not time (the
	// header's meta has "clock":"synthetic"): durations measured on it
	// are left out. A duration the source reported itself is still shown.
	SyntheticClock bool
}

func (o Options) width() int {
	if o.Width <= 0 {
		return DefaultWidth
	}
	return o.Width
}

// Render returns the plain-text rendering of tl: top-level items separated
// by one blank line, every line ending in a newline.
func Render(tl *timeline.Timeline, opts Options) string {
	r := renderer{opts: opts, w: opts.width(), now: tl.Now}
	var b strings.Builder
	b.Grow(len(tl.Items) * 80)
	for _, it := range tl.Items {
		if Hidden(it) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		r.b = r.b[:0]
		r.item(it, "")
		b.Write(r.b)
	}
	if legend := Legend(tl, opts); legend != "" {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		r.b = r.b[:0]
		r.line(legend)
		b.Write(r.b)
	}
	return b.String()
}

// Hidden reports whether an item renders to nothing: thinking, or
// assistant text that was not interrupted, holding only white space. A
// hidden item adds no line and no blank line.
func Hidden(it *timeline.Item) bool {
	switch it.Kind {
	case timeline.ItemThinking:
	case timeline.ItemAssistant:
		if it.Interrupted {
			return false
		}
	default:
		return false
	}
	return strings.TrimSpace(Sanitize(it.Text)) == ""
}

// Item renders one top-level item when the clock reads now.
func Item(it *timeline.Item, now int64, opts Options) string {
	if Hidden(it) {
		return ""
	}
	r := renderers.Get().(*renderer)
	r.opts, r.w, r.now, r.b = opts, opts.width(), now, r.b[:0]
	r.item(it, "")
	s := string(r.b) // one allocation of the text's size
	renderers.Put(r)
	return s
}

// renderers keep the scratch space of renderers between calls to Item,
// which renders one item at a time, many times over in a check.
var renderers = sync.Pool{New: func() any { return new(renderer) }}

// renderer accumulates the lines of one item.
type renderer struct {
	opts Options
	w    int
	now  int64
	b    []byte // the lines written so far
	row  []byte // scratch for building one line
	join []byte // scratch for lineOf
}

// line writes one line, cut to the width, without trailing spaces.
func (r *renderer) line(s string) {
	r.b = append(append(r.b, fit(strings.TrimRight(s, " "), r.w)...), '\n')
}

// lineOf writes the concatenation of parts as one line, as line does,
// without making the concatenated string when it fits.
func (r *renderer) lineOf(parts ...string) {
	r.join = r.join[:0]
	for _, p := range parts {
		r.join = append(r.join, p...)
	}
	r.bytesLine(r.join)
}

// rowLine writes r.row as a line, without converting it when it fits.
func (r *renderer) rowLine() { r.bytesLine(r.row) }

// bytesLine writes row as a line, as line does.
func (r *renderer) bytesLine(row []byte) {
	for len(row) > 0 && row[len(row)-1] == ' ' {
		row = row[:len(row)-1]
	}
	if len(row) > r.w {
		r.line(string(row))
		return
	}
	r.b = append(append(r.b, row...), '\n')
}

// item renders an item whose tool rows start at indent+"  ".
func (r *renderer) item(it *timeline.Item, indent string) {
	switch it.Kind {
	case timeline.ItemUser:
		r.text(it.Text, "> ", "  ")
	case timeline.ItemAssistant:
		r.text(it.Text, "│ ▸ ", "│   ")
		if it.Interrupted {
			r.line("│ ⚠ interrupted")
		}
	case timeline.ItemThinking:
		r.text(it.Text, "  ∴ ", "    ")
	case timeline.ItemTool, timeline.ItemMetaTool:
		if it.Tool != nil {
			r.single(it.Tool, indent+"  ")
		}
	case timeline.ItemToolGroup:
		r.group(it, indent)
	case timeline.ItemNotice:
		r.notice(it)
	case timeline.ItemSeparator:
		r.line("── " + inline(it.Text) + " ──")
	case timeline.ItemCompaction:
		r.compaction(it)
	default:
		r.line("  · " + string(it.Kind))
	}
}

// text renders wrapped text with a prefix on the first line and another on
// the rest.
// Blank lines before and after the text carry nothing and are left out.
func (r *renderer) text(s, first, rest string) {
	s = strings.Trim(Sanitize(s), "\n")
	avail := r.w - width(first)
	prefix := first
	for _, para := range splitLines(s) {
		for _, l := range wrap(para, avail) {
			r.line(prefix + l)
			prefix = rest
		}
	}
}

func (r *renderer) notice(it *timeline.Item) {
	switch it.Level {
	case timeline.NoticeInterrupted:
		s := "  ⚠ Interrupted"
		if it.Text != "" {
			s += " (" + firstLine(Sanitize(it.Text)) + ")"
		}
		r.line(s)
	default:
		r.line("  ✗ Error: " + firstLine(Sanitize(it.Text)))
	}
}

// inline is untrusted text made safe and put on one line.
func inline(s string) string {
	s = Sanitize(s)
	if strings.IndexByte(s, '\n') < 0 {
		return s
	}
	return strings.ReplaceAll(s, "\n", " ")
}

// firstLine returns the first of s's lines, as splitLines cuts them.
func firstLine(s string) string {
	line, _, found := strings.Cut(s, "\n")
	if found {
		line = strings.TrimSuffix(line, "\r")
	}
	return line
}
