package tui

import (
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/render"
)

// Minimum terminal size: below it the player says so instead of drawing
// broken panes.
const (
	MinWidth  = 40
	MinHeight = 12
)

// wideWidth is the width from which the event and diagnostics panes sit
// beside the timeline rather than under it.
const wideWidth = 100

// pane is a pane's content size in cells.
type pane struct{ w, h int }

// layout is where the panes go for the current terminal size.
type layout struct {
	ok                     bool // the terminal is big enough
	wide                   bool // events and diagnostics beside the timeline
	timeline, events, diag pane
}

// layout splits the screen: a header line, pane titles, the panes, and a
// footer line.
func (m *Model) layout() layout {
	w, h := m.width, m.height
	if w < MinWidth || h < MinHeight {
		return layout{}
	}
	if w >= wideWidth {
		rw := max(36, min(64, w*2/5))
		th := h - 3
		dh := max(3, th/3)
		return layout{ok: true, wide: true, timeline: pane{w - rw - 1, th}, events: pane{rw, th - 1 - dh}, diag: pane{rw, dh}}
	}
	avail := h - 5
	dh := max(2, avail/5)
	eh := max(2, avail*3/10)
	return layout{ok: true, timeline: pane{w, avail - eh - dh}, events: pane{w, eh}, diag: pane{w, dh}}
}

// layoutStore tells the store the timeline pane's width and how many lines
// it may need.
func (m *Model) layoutStore() {
	if l := m.layout(); l.ok {
		m.store.SetLayout(l.timeline.w, l.timeline.h+m.scroll)
	}
}

// Screen returns the whole screen as text: what View shows, one line per
// terminal row, each exactly as wide as the terminal.
func (m *Model) Screen() string {
	if m.width <= 0 || m.height <= 0 {
		return ""
	}
	l := m.layout()
	if !l.ok {
		return m.tooSmall()
	}
	rows := []string{m.header()}
	switch {
	case m.showHelp:
		rows = append(rows, m.help(m.height-2)...)
	case l.wide:
		rows = append(rows, m.widePanes(l)...)
	default:
		rows = append(rows, m.stackedPanes(l)...)
	}
	rows = append(rows, m.footer())
	return strings.Join(rows, "\n")
}

// tooSmall is the message shown instead of the panes.
func (m *Model) tooSmall() string {
	msg := []string{
		fmt.Sprintf("Terminal too small: %d×%d.", m.width, m.height),
		fmt.Sprintf("The player needs %d×%d.", MinWidth, MinHeight),
		"Enlarge the window,",
		"or press q to quit.",
	}
	var rows []string
	for _, s := range msg {
		for _, part := range wordWrap(s, m.width) {
			rows = append(rows, cell(part, m.width))
		}
	}
	for len(rows) < m.height {
		rows = append(rows, cell("", m.width))
	}
	return strings.Join(rows[:m.height], "\n")
}

// widePanes puts the timeline on the left, events over diagnostics on the
// right.
func (m *Model) widePanes(l layout) []string {
	left := m.timelinePane(l.timeline)
	right := append(m.eventPane(l.events), m.ruleRow("diagnostics", l.diag.w))
	right = append(right, m.diagPane(l.diag)...)
	sep := m.styles.chrome(m.styles.pane, "│")
	rows := []string{m.ruleRow("timeline", l.timeline.w) + m.styles.chrome(m.styles.pane, "┬") + m.ruleRow("events", l.events.w)}
	for i := range l.timeline.h {
		if i == l.events.h {
			rows = append(rows, left[i]+m.styles.chrome(m.styles.pane, "├")+right[i])
			continue
		}
		rows = append(rows, left[i]+sep+right[i])
	}
	return rows
}

// stackedPanes puts the three panes one under the other.
func (m *Model) stackedPanes(l layout) []string {
	rows := []string{m.ruleRow("timeline", l.timeline.w)}
	rows = append(rows, m.timelinePane(l.timeline)...)
	rows = append(rows, m.ruleRow("events", l.events.w))
	rows = append(rows, m.eventPane(l.events)...)
	rows = append(rows, m.ruleRow("diagnostics", l.diag.w))
	return append(rows, m.diagPane(l.diag)...)
}

// ruleRow is a muted pane title line.
func (m *Model) ruleRow(title string, w int) string {
	return m.styles.chrome(m.styles.pane, rule(title, w))
}

// header is the top line: what is played, and where.
func (m *Model) header() string {
	left := " toolsim " + m.mode() + " · " + m.opts.Title
	right := m.position() + " "
	w := m.width - render.Width(right)
	text := cell(left, max(w, 0)) + right
	if render.Width(text) > m.width {
		text = cell(text, m.width)
	}
	return m.styles.chrome(m.styles.title, text)
}

func (m *Model) mode() string {
	if m.opts.Live {
		return "watch"
	}
	return "play"
}

// position says where playback is: state, speed, seq, frame, clock.
func (m *Model) position() string {
	state := "⏸ paused"
	switch {
	case m.playing:
		state = "▶ playing"
	case m.opts.Live && m.done:
		state = "■ input ended"
	case m.opts.Live && m.follow:
		state = "● live"
	}
	s := fmt.Sprintf("%s · %s× · ", state, speedLabel(speeds[m.speed]))
	if m.pos == 0 {
		return s + fmt.Sprintf("0/%d", m.store.Len())
	}
	ev := m.store.Event(m.pos - 1)
	return s + fmt.Sprintf("seq %d · %d/%d · t=%s", ev.Seq, m.pos, m.store.Len(), render.Duration(ev.T))
}

func speedLabel(f float64) string {
	return strings.TrimSuffix(fmt.Sprintf("%g", f), ".0")
}

// footer is the bottom line: the open prompt, a message, or the keys.
func (m *Model) footer() string {
	switch {
	case m.input != nil && m.input.kind == 'g':
		return cell(" go to seq: "+m.input.value+"▏", m.width)
	case m.input != nil:
		return cell(" search: "+m.input.value+"▏", m.width)
	case m.note != "":
		return cell(" "+m.note, m.width)
	}
	keys := " space play · ←/→ step · shift+←/→ result · g seq · / search · ? help · q quit"
	return m.styles.chrome(m.styles.muted, cell(keys, m.width))
}

// helpLines lists the keys, then the status marks.
var helpLines = []string{
	"space        play / pause at trace speed",
	"← →  h l     step one event",
	"shift+← →    previous / next tool result",
	"home end     first / last event",
	"g SEQ enter  jump to a seq",
	"+ -          playback speed",
	"/ TEXT enter search event text, ids, names, seq; n N next / previous",
	"enter        show / hide the current event's JSON",
	"pgup pgdown  scroll the timeline",
	"?            this help (any key closes it)",
	"q ctrl+c     quit",
	"",
	"marks: ▶ running  ✓ ok  ✗ failed  ⚠ interrupted (user abort)  ⊘ denied",
	"       ? waiting for permission  ⋯ unfinished (the input ended first)",
}

// help draws the key list over the panes.
func (m *Model) help(h int) []string {
	rows := []string{m.ruleRow("keys", m.width)}
	for _, s := range helpLines {
		rows = append(rows, cell("  "+s, m.width))
	}
	for len(rows) < h {
		rows = append(rows, cell("", m.width))
	}
	return rows[:h]
}
