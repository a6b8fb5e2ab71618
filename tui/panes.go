package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
)

// spinnerFrames animate running tools; the frame comes from the trace
// clock, so a frame of the trace always looks the same.
var spinnerFrames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

// spinnerStep is how much trace time one spinner frame lasts.
const spinnerStep = 80

// Spinner returns the spinner frame shown at trace time now.
func Spinner(now int64) string {
	return spinnerFrames[(max(now, 0)/spinnerStep)%int64(len(spinnerFrames))]
}

// frame returns the current frame.
func (m *Model) frame() *Frame { return m.store.Frame(m.pos) }

// TimelineLines returns the timeline pane's lines as shown, unstyled and
// without padding: the tail of the plain render of the current frame.
func (m *Model) TimelineLines() []string {
	l := m.layout()
	if !l.ok {
		return nil
	}
	var out []string
	for _, line := range m.visibleLines(l.timeline.h) {
		out = append(out, strings.TrimRight(line.Text, " "))
	}
	return out
}

// visibleLines picks the frame's lines the pane shows: all of them when
// they fit, else the last h (scrolled up by m.scroll), the first replaced
// by a marker when lines are hidden above.
func (m *Model) visibleLines(h int) []Line {
	f := m.frame()
	lines := f.Lines
	if len(lines) <= h && !f.More {
		return lines
	}
	m.scroll = min(m.scroll, max(0, len(lines)-h))
	end := len(lines) - m.scroll
	start := max(0, end-h)
	shown := append([]Line(nil), lines[start:end]...)
	if start > 0 || f.More {
		shown[0] = Line{Text: "  ↑ more above (pgup)", Role: RoleSeparator}
	}
	return shown
}

// timelinePane draws the timeline as it looked after the current event.
func (m *Model) timelinePane(p pane) []string {
	if m.store.Len() == 0 {
		return m.emptyTimeline(p)
	}
	spin := ""
	if !m.styles.Plain() {
		spin = Spinner(m.frame().Now)
	}
	rows := make([]string, 0, p.h)
	for _, l := range m.visibleLines(p.h) {
		text := cut(sanitize(l.Text), p.w)
		rows = append(rows, m.styles.Line(Line{Text: text, Role: l.Role, Status: l.Status}, spin)+pad(text, p.w))
	}
	return fill(rows, p)
}

// emptyTimeline says why there is nothing to show.
func (m *Model) emptyTimeline(p pane) []string {
	var rows []string
	switch {
	case m.err != nil:
		for _, s := range wordWrap("Cannot show this trace: "+m.err.Error(), p.w) {
			rows = append(rows, m.styles.chrome(m.styles.bad, cell(s, p.w)))
		}
	case m.opts.Live && !m.done:
		rows = append(rows, cell("  waiting for events on stdin…", p.w))
	default:
		rows = append(rows, cell("  the trace holds no events", p.w))
	}
	return fill(rows, p)
}

// fill pads rows with blank lines to the pane's height (and cuts them to
// it).
func fill(rows []string, p pane) []string {
	for len(rows) < p.h {
		rows = append(rows, strings.Repeat(" ", p.w))
	}
	return rows[:p.h]
}

// eventPane lists the trace around the current event, and its JSON on
// demand.
func (m *Model) eventPane(p pane) []string {
	n := m.store.Len()
	listH := p.h
	if m.showJSON && m.pos > 0 {
		listH = max(1, p.h/3)
	}
	start := max(0, min(m.pos-1-listH/2, n-listH))
	last := m.lastEvent()
	seqW, tW := len(strconv.FormatInt(last.Seq, 10)), len(traceTime(last.T))
	var rows []string
	for i := start; i < min(n, start+listH); i++ {
		line := eventLine(m.store.Event(i), seqW, tW)
		if i == m.pos-1 {
			rows = append(rows, m.styles.chrome(m.styles.current, cell("▸ "+line, p.w)))
			continue
		}
		rows = append(rows, cell("  "+line, p.w))
	}
	rows = fill(rows, pane{p.w, listH})
	if listH < p.h {
		rows = append(rows, m.jsonRows(pane{p.w, p.h - listH})...)
	}
	return rows
}

// lastEvent returns the trace's last event, or a zero one.
func (m *Model) lastEvent() *event.Event {
	if n := m.store.Len(); n > 0 {
		return m.store.Event(n - 1)
	}
	return &event.Event{}
}

// jsonRows shows the current event's canonical JSON, indented.
func (m *Model) jsonRows(p pane) []string {
	rows := []string{m.ruleRow("event JSON (enter hides)", p.w)}
	raw := event.AppendEvent(nil, m.store.Event(m.pos-1))
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		b.Reset()
		b.Write(raw)
	}
	for _, l := range strings.Split(b.String(), "\n") {
		for _, part := range hardWrap(l, p.w) {
			rows = append(rows, cell(part, p.w))
		}
	}
	if len(rows) > p.h {
		rows = append(rows[:p.h-1], cell("…", p.w))
	}
	return fill(rows, p)
}

// eventLine is one event of the list: seq, trace time, kind, what it
// carries.
func eventLine(ev *event.Event, seqW, tW int) string {
	return fmt.Sprintf("%*d %*s  %-13s %s", seqW, ev.Seq, tW, traceTime(ev.T), ev.Kind, eventDetail(ev))
}

// traceTime writes a trace time in seconds, to the millisecond.
func traceTime(t int64) string {
	return fmt.Sprintf("%d.%03d", t/1000, t%1000)
}

// eventDetail says in a few words what an event carries.
func eventDetail(ev *event.Event) string {
	switch ev.Kind {
	case event.KindTurnStart:
		return ev.Role
	case event.KindUser, event.KindText, event.KindThinking:
		return strconv.Quote(firstLine(ev.Text))
	case event.KindToolStart:
		return strings.TrimSpace(ev.ID + " " + ev.Name + "  " + firstLine(engine.SummaryOf(ev.Name, ev.Args)))
	case event.KindToolProgress:
		return strings.TrimSpace(ev.ID + " " + firstLine(ev.Output))
	case event.KindToolDone:
		if ev.OK {
			return ev.ID + " ok"
		}
		return strings.TrimSpace(ev.ID + " failed " + firstLine(ev.Error))
	case event.KindPermission:
		return ev.ID + " " + ev.State
	case event.KindCancel:
		return ev.Reason
	case event.KindError:
		return firstLine(ev.Message)
	}
	return ""
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	return strings.TrimSpace(line)
}

// TimelineWidth returns the width the timeline pane renders at, 0 when the
// terminal is too small.
func (m *Model) TimelineWidth() int {
	if l := m.layout(); l.ok {
		return l.timeline.w
	}
	return 0
}
