package render

import (
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/timeline"
)

// UnfinishedGlyph marks a tool the input ended before it finished: not a
// user abort (⚠), not a tool still running (▶).
const UnfinishedGlyph = "⋯"

// unfinished reports whether t shows the unfinished mark: still running
// when the input is over, or interrupted by the end-of-stream rule. A tool
// waiting for permission keeps its ?: what it waits for is the point.
func (r *renderer) unfinished(t *timeline.Tool) bool {
	if !t.Status.Terminal() {
		return r.opts.Ended && t.Status == timeline.StatusRunning
	}
	return t.Unfinished && t.Status == timeline.StatusInterrupted
}

// Legend returns the line that explains the unfinished mark, or "" when no
// tool of tl shows it. Render ends with it, after one blank line.
func Legend(tl *timeline.Timeline, opts Options) string {
	// The end-of-stream rule adds its diagnostics last: without them, and
	// before the input ended, no tool can show the mark (and a frame of a
	// long replay is not walked for nothing).
	if d := tl.Diagnostics; !opts.Ended && (len(d) == 0 || d[len(d)-1].Code != timeline.DiagUnfinishedAtEnd) {
		return ""
	}
	r := renderer{opts: opts, now: tl.Now}
	n := 0
	for _, it := range tl.Items {
		n += r.countUnfinished(it)
	}
	switch n {
	case 0:
		return ""
	case 1:
		return "  " + UnfinishedGlyph + " unfinished: the input ended before 1 tool finished"
	}
	return "  " + UnfinishedGlyph + " unfinished: the input ended before " + strconv.Itoa(n) + " tools finished"
}

// countUnfinished counts the tools of an item, children included, that
// show the unfinished mark.
func (r *renderer) countUnfinished(it *timeline.Item) int {
	n := 0
	tools := it.Tools
	if it.Tool != nil {
		tools = []*timeline.Tool{it.Tool}
	}
	for _, t := range tools {
		if r.unfinished(t) {
			n++
		}
		for _, c := range t.Children {
			n += r.countUnfinished(c)
		}
	}
	return n
}

// compaction renders a compaction marker with the summary folded: a rule,
// then one line with the summary's size and its first line.
func (r *renderer) compaction(it *timeline.Item) {
	r.line("── Conversation compacted ──")
	text := strings.Trim(Sanitize(it.Text), "\n")
	if strings.TrimSpace(text) == "" {
		return
	}
	lines := splitLines(text)
	head := "  ≡ summary, " + strconv.Itoa(len(lines)) + " line"
	if len(lines) != 1 {
		head += "s"
	}
	first := ""
	for _, l := range lines {
		if first = strings.TrimSpace(l); first != "" {
			break
		}
	}
	r.line(head + " (folded): " + first)
}
