package tui

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/toolsim/toolsim/event"
)

// prompt is the one-line input of `g` (go to a seq) and `/` (search).
type prompt struct {
	kind  byte // 'g' or '/'
	value string
}

// key handles a key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	if m.input != nil {
		m.promptKey(k)
		return nil
	}
	m.note = ""
	key := k.String()
	if m.showHelp && key != "q" && key != "ctrl+c" {
		m.showHelp = false
		return nil
	}
	if cmd, ok := m.moveKey(key); ok {
		return cmd
	}
	switch key {
	case "q", "ctrl+c":
		m.playing = false
		return tea.Quit
	case "space":
		return m.play()
	case "+", "=":
		return m.setSpeed(m.speed + 1)
	case "-", "_":
		return m.setSpeed(m.speed - 1)
	case "g", "/":
		m.input = &prompt{kind: key[0]}
	case "n", "N":
		m.search(key == "n")
	case "?":
		m.showHelp = true
	case "enter":
		m.showJSON = !m.showJSON
	case "esc":
		m.showJSON = false
	case "pgup", "pgdown":
		m.scrollBy(key == "pgup")
	}
	return nil
}

// setSpeed changes the playback speed; playing on, the wait for the next
// event starts again at the new speed.
func (m *Model) setSpeed(i int) tea.Cmd {
	m.speed = max(0, min(i, len(speeds)-1))
	if !m.playing {
		return nil
	}
	m.gen++
	return m.schedule()
}

// moveKey handles the keys that move through the trace. Moving pauses
// playback.
func (m *Model) moveKey(key string) (tea.Cmd, bool) {
	n := m.pos
	switch key {
	case "right", "l":
		n++
	case "left", "h":
		n--
	case "shift+right":
		n = m.findResult(+1)
	case "shift+left":
		n = m.findResult(-1)
	case "home":
		n = 1
	case "end":
		n = m.store.Len()
	default:
		return nil, false
	}
	m.playing = false
	m.gen++
	m.seek(n)
	return nil, true
}

// findResult returns the frame of the next (dir > 0) or previous tool
// result, or the current frame when there is none.
func (m *Model) findResult(dir int) int {
	for i := m.pos - 1 + dir; i >= 0 && i < m.store.Len(); i += dir {
		if m.store.Event(i).Kind == event.KindToolDone {
			return i + 1
		}
	}
	m.note = "no further tool result"
	return m.pos
}

// promptKey edits the open prompt.
func (m *Model) promptKey(k tea.KeyPressMsg) {
	p := m.input
	switch k.String() {
	case "esc", "ctrl+c":
		m.input = nil
	case "enter":
		m.input = nil
		m.submit(p)
	case "backspace":
		if r := []rune(p.value); len(r) > 0 {
			p.value = string(r[:len(r)-1])
		}
	default:
		if k.Text != "" {
			p.value += k.Text
		}
	}
}

// submit runs a prompt: go to a seq, or search.
func (m *Model) submit(p *prompt) {
	if p.kind == 'g' {
		seq, err := strconv.ParseInt(strings.TrimSpace(p.value), 10, 64)
		if err != nil {
			m.note = "not a seq: " + p.value
			return
		}
		m.playing = false
		m.seek(m.store.SeqIndex(seq))
		return
	}
	if p.value != "" {
		m.query = p.value
	}
	m.search(true)
}

// search moves to the next (or previous) event matching the last query,
// wrapping around the trace.
func (m *Model) search(forward bool) {
	if m.query == "" {
		m.note = "no search yet: press /"
		return
	}
	n := m.store.Len()
	q := strings.ToLower(m.query)
	for k := 1; k <= n; k++ {
		i := (m.pos - 1 + k) % n
		if !forward {
			i = ((m.pos-1-k)%n + n) % n
		}
		if matches(m.store.Event(i), q) {
			m.playing = false
			m.seek(i + 1)
			return
		}
	}
	m.note = "no event matches " + strconv.Quote(m.query)
}

// matches reports whether an event's text, ids or seq contain q (lower
// case).
func matches(ev *event.Event, q string) bool {
	if strconv.FormatInt(ev.Seq, 10) == q {
		return true
	}
	for _, s := range []string{ev.ID, ev.Name, ev.Text, ev.Output, ev.Error, ev.Message, ev.Reason, ev.Batch, ev.Parent, ev.State, string(ev.Kind), string(ev.Args)} {
		if s != "" && strings.Contains(strings.ToLower(s), q) {
			return true
		}
	}
	return false
}

// scrollBy scrolls the timeline pane by half a pane.
func (m *Model) scrollBy(up bool) {
	step := max(m.layout().timeline.h/2, 1)
	if !up {
		step = -step
	}
	m.scroll = max(0, m.scroll+step)
	m.layoutStore()
}
