package tui

import (
	"fmt"
	"strings"
)

// diagPane says what went wrong at the current step, if anything: the
// diagnostics the event added and the oracles it failed, then the totals,
// the input's problems and its state.
func (m *Model) diagPane(p pane) []string {
	var rows []string
	add := func(text string, bad bool) {
		for _, part := range wordWrap(text, p.w-1) {
			part = " " + part
			row := cell(part, p.w)
			if bad {
				row = m.styles.chrome(m.styles.bad, row)
			}
			rows = append(rows, row)
		}
	}
	if m.err != nil {
		add("✗ "+m.err.Error(), true)
	}
	m.stepRows(add)
	for _, pr := range m.problems {
		add("import: "+pr, true)
	}
	if m.opts.Live {
		add(m.liveState(), false)
	}
	return fill(rows, p)
}

// stepRows adds what the current event did wrong, and the totals.
func (m *Model) stepRows(add func(string, bool)) {
	if m.pos == 0 {
		return
	}
	f := m.frame()
	ev := f.Event
	add(fmt.Sprintf("seq %d %s", ev.Seq, ev.Kind), false)
	for _, d := range f.Diags {
		add(fmt.Sprintf("⚠ %s id=%s (seq %d)", d.Code, d.ID, d.Seq), true)
	}
	for _, v := range f.Violations {
		add(fmt.Sprintf("✗ oracle %s: %s", v.Oracle, v.Detail), true)
	}
	if len(f.Diags) == 0 && len(f.Violations) == 0 {
		add("✓ nothing went wrong at this step", false)
	}
	add(fmt.Sprintf("%d diagnostics so far · %d tools live", f.TotalDiags, f.Live), false)
}

// liveState says how a watched input is doing.
func (m *Model) liveState() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d events received", m.store.Len())
	switch {
	case m.done:
		b.WriteString(" · input ended")
	case !m.follow:
		b.WriteString(" · press end to follow")
	default:
		b.WriteString(" · following")
	}
	return b.String()
}
