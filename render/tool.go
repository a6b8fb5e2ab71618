package render

import (
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/timeline"
)

// Glyph returns the status glyph of a tool row.
func Glyph(s timeline.Status) string {
	switch s {
	case timeline.StatusRunning:
		return "▶"
	case timeline.StatusOK:
		return "✓"
	case timeline.StatusFailed:
		return "✗"
	case timeline.StatusInterrupted:
		return "⚠"
	case timeline.StatusDenied:
		return "⊘"
	case timeline.StatusPending:
		return "?"
	}
	return "·"
}

// toolDuration is the duration column of a row: elapsed while running,
// the final duration once done, nothing while pending or when denied.
// An unfinished tool shows none (it never ended), nor does a duration
// measured on a synthetic clock.
func (r *renderer) toolDuration(t *timeline.Tool) string {
	switch {
	case t.Status == timeline.StatusPending, t.Status == timeline.StatusDenied, r.unfinished(t):
		return ""
	case r.opts.SyntheticClock && (!t.Status.Terminal() || t.DurationMS == t.EndT-t.StartT):
		return ""
	}
	return Duration(t.Elapsed(r.now))
}

// glyph is the status glyph of a row, or the unfinished mark.
func (r *renderer) glyph(t *timeline.Tool) string {
	if r.unfinished(t) {
		return UnfinishedGlyph
	}
	return Glyph(t.Status)
}

// label is the summary plus the delegation progress suffix.
func label(t *timeline.Tool) string {
	s := inline(t.Summary)
	if d := t.Delegation; d != nil {
		if s != "" {
			s += "  "
		}
		s += delegationSuffix(d)
	}
	return s
}

// minCutSummary is the fewest cells a summary is cut to so that the
// delegation suffix after it stays whole.
const minCutSummary = 4

// fitLabel cuts a row's label (see label) to w cells. A delegation's step
// suffix is what moves while the steps run, so it stays whole: the summary
// before it is cut first, as long as minCutSummary cells of it stay, else
// left out; only a suffix wider than w is cut itself.
func fitLabel(t *timeline.Tool, s string, w int) string {
	if t.Delegation == nil || width(s) <= w {
		return fit(s, w)
	}
	suffix := delegationSuffix(t.Delegation)
	switch room := w - 2 - width(suffix); {
	case room >= minCutSummary:
		return fit(inline(t.Summary), room) + "  " + suffix
	case width(suffix) <= w:
		return suffix
	}
	return fit(s, w)
}

// single renders a tool that is not in a group:
// indent, glyph, name, two spaces, summary, two spaces, duration.
func (r *renderer) single(t *timeline.Tool, indent string) {
	dur := r.toolDuration(t)
	tail := ""
	if dur != "" {
		tail = "  " + dur
	}
	prefix := indent + r.glyph(t) + " "
	head := prefix + fit(inline(t.Name), max(r.w-width(prefix)-width(tail), 4))
	sum := label(t)
	if sum != "" {
		if avail := r.w - width(head) - 2 - width(tail); avail >= 2 {
			r.lineOf(head, "  ", fitLabel(t, sum, avail), tail)
			r.details(t, indent)
			return
		}
	}
	r.lineOf(head, tail)
	r.details(t, indent)
}

// group renders a tool group: a header, then one aligned row per member.
func (r *renderer) group(it *timeline.Item, indent string) {
	r.lineOf(indent, "  ⫘ ", r.groupHeader(it.Tools))
	n := len(it.Tools)
	cols := make([]string, 3*n) // names, labels and durations, in one allocation
	names, labels, durs := cols[:n:n], cols[n:2*n:2*n], cols[2*n:]
	nameW, sumW := 0, 0
	for i, t := range it.Tools {
		names[i], labels[i] = inline(t.Name), label(t)
		nameW = max(nameW, width(names[i]))
		sumW = max(sumW, width(labels[i]))
	}

	durW := 5
	for i, t := range it.Tools {
		durs[i] = r.toolDuration(t)
		durW = max(durW, width(durs[i]))
	}
	col := max(17, sumW+2)
	member := indent + "    "
	// Cut names only when they would push the duration off the row.
	nameW = min(nameW, max(r.w-width(member)-2-2-3-durW, 4))
	fixed := width(member) + 2 + nameW + 2
	if fixed+col+durW > r.w {
		// Narrow screen: shorten summaries so that durations stay whole.
		col = max(r.w-fixed-durW, 3)
	}
	for i, t := range it.Tools {
		row := append(r.row[:0], member...)
		row = append(row, r.glyph(t)...)
		row = append(row, ' ')
		row = appendPadRight(row, fit(names[i], nameW), nameW)
		row = append(row, "  "...)
		sum := ""
		if col >= 5 { // too narrow for a useful summary: leave it out
			sum = fitLabel(t, labels[i], col-2)
		}
		row = appendPadRight(row, sum, col)
		r.row = appendPadLeft(row, durs[i], 5)
		r.rowLine()
		r.details(t, member)
	}
}

// groupHeader is "N tools running" while a member is live, else "N tools"
// with the batch span (last finish − first start), left out when every
// member failed (seed 000, edge case 5), when a member never finished, and
// on a synthetic clock.
func (r *renderer) groupHeader(tools []*timeline.Tool) string {
	n := strconv.Itoa(len(tools)) + " tools"
	first, last, allFailed, cut := tools[0].StartT, tools[0].EndT, true, false
	for _, t := range tools {
		if r.unfinished(t) {
			cut = true
			continue
		}
		if !t.Status.Terminal() {
			return n + " running"
		}
		first, last = min(first, t.StartT), max(last, t.EndT)
		allFailed = allFailed && t.Status == timeline.StatusFailed
	}
	if allFailed || cut || r.opts.SyntheticClock {
		return n
	}
	return n + "  " + Duration(last-first)
}

// details renders what goes under a tool row: the error, the output
// snippet, delegation steps, and child tools.
func (r *renderer) details(t *timeline.Tool, indent string) {
	if t.Status == timeline.StatusFailed && t.Error != "" {
		r.lineOf(indent, "  ", firstLine(Sanitize(t.Error)))
	}
	if r.opts.Output && t.Output != "" {
		for _, l := range Snippet(t.Output) {
			r.lineOf(indent, "  ", "│ ", l)
		}
	}
	if t.Delegation != nil {
		r.delegation(t.Delegation, indent+"  ")
	}
	childIndent := indent
	if len(indent) > MaxIndent {
		childIndent = indent[:MaxIndent]
	}
	for _, c := range t.Children {
		r.item(c, childIndent)
	}
}

// MaxIndent caps the indentation of nested sub-agent tools, in cells:
// deeper tools are still shown, at this indentation, so a long parent chain
// cannot push rows off the screen (or make rendering quadratic in depth).
const MaxIndent = 16

// SnippetLines is the most output lines a snippet shows (seed 002).
const SnippetLines = 5

// Snippet selects the output lines to show: all of them when there are at
// most SnippetLines, else the first two, a "… +N lines" marker and the last
// two.
// The output is sanitized first (see Sanitize).
func Snippet(output string) []string {
	lines := splitLines(Sanitize(output))
	if len(lines) <= SnippetLines {
		return lines
	}
	hidden := len(lines) - 4
	out := append([]string{}, lines[:2]...)
	out = append(out, "… +"+strconv.Itoa(hidden)+" lines")
	return append(out, lines[len(lines)-2:]...)
}

// MaxDelegationRows is how many steps a collapsed delegation shows.
const MaxDelegationRows = 8

// delegation renders the steps, agents padded to the longest shown (at most
// 24 cells), then the first line of each task.
func (r *renderer) delegation(d *timeline.Delegation, indent string) {
	shown := d.Steps[:min(len(d.Steps), MaxDelegationRows)]
	agentW := 0
	for _, s := range shown {
		agentW = max(agentW, min(width(inline(s.Agent)), 24))
	}
	for _, s := range shown {
		r.line(indent + stepGlyph(s.Status) + " " + padRight(fit(inline(s.Agent), 24), agentW) + "  " + firstLine(Sanitize(s.Task)))
	}
	if more := len(d.Steps) - len(shown); more > 0 {
		r.line(indent + "… " + strconv.Itoa(more) + " more")
	}
}

func stepGlyph(status string) string {
	switch status {
	case timeline.StepPending:
		return "○"
	case timeline.StepRunning:
		return "◌"
	case timeline.StepOK:
		return "✓"
	case timeline.StepError:
		return "✕"
	}
	return "·"
}

// delegationSuffix is "2 ok / 3", or "1 ok · 1 err / 3" once a step failed.
func delegationSuffix(d *timeline.Delegation) string {
	ok, errs := 0, 0
	for _, s := range d.Steps {
		switch s.Status {
		case timeline.StepOK:
			ok++
		case timeline.StepError:
			errs++
		}
	}
	var b strings.Builder
	b.WriteString(strconv.Itoa(ok) + " ok")
	if errs > 0 {
		b.WriteString(" · " + strconv.Itoa(errs) + " err")
	}
	b.WriteString(" / " + strconv.Itoa(len(d.Steps)))
	return b.String()
}
