package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/toolsim/toolsim/event"
)

// Options configure a [Model].
type Options struct {
	Title    string               // what is played: a file name, "stdin"
	Profile  colorprofile.Profile // colour profile; ASCII or less draws no colour
	Output   bool                 // show output snippets under tools
	Err      error                // the input failed: shown, and reported by Model.Err
	Problems []string             // import problems, shown in the diagnostics pane
	Live     bool                 // watch: events arrive as EventsMsg
	Store    StoreOptions         // frame store tuning; Width and Depth follow the layout

	// Schedule returns the command that delivers msg after d: playback's
	// timer. Nil means tea.Tick. Tests pass their own and deliver the
	// messages themselves, so no test waits on a clock.
	Schedule func(d time.Duration, msg tea.Msg) tea.Cmd
}

// TickMsg advances playback by one step. Ticks of an earlier playback
// (before a pause or a seek) are ignored.
type TickMsg struct{ Gen int }

// EventsMsg brings a live model new events: the trace from event From
// (0-based) on is replaced by Events. Done says the input ended; Err is
// why it stopped early, Problems the input's problems so far.
type EventsMsg struct {
	From     int
	Events   []event.Event
	Problems []string
	Done     bool
	Err      error
}

// Model is the player: a Bubble Tea model over a [Store].
type Model struct {
	opts   Options
	store  *Store
	styles *Styles

	pos           int // the current frame: events applied
	width, height int
	scroll        int // timeline lines scrolled up from the bottom

	playing bool
	speed   int // index into speeds
	gen     int // playback generation, for stale ticks

	showJSON, showHelp bool
	input              *prompt // the goto or search prompt, when open
	query              string  // the last search
	note               string  // a one-line message in the footer

	follow   bool // live: stay on the newest event
	done     bool // live: the input ended
	err      error
	problems []string
}

// speeds are the playback speeds; speedNormal is 1×.
var speeds = []float64{0.25, 0.5, 1, 2, 4, 8, 16, 32, 64}

const speedNormal = 2

// New returns a player over evs (nil for a live model, which gets its
// events as EventsMsg). It starts on the first event, paused; a live model
// follows the newest. Call Close when done.
func New(evs []event.Event, opts Options) *Model {
	m := &Model{opts: opts, styles: NewStyles(opts.Profile), speed: speedNormal, err: opts.Err, problems: opts.Problems}
	if opts.Live {
		m.store = NewLiveStore(opts.Store)
		m.follow = true
	} else {
		m.store = NewStore(evs, opts.Store)
	}
	m.store.Start()
	m.pos = min(1, m.store.Len())
	return m
}

// Close stops the store's background work.
func (m *Model) Close() { m.store.Close() }

// Err reports why the input failed, if it did: the player exits non-zero.
func (m *Model) Err() error { return m.err }

// Pos returns the current frame: the number of events applied.
func (m *Model) Pos() int { return m.pos }

// Init starts nothing: the model moves only on messages.
func (m *Model) Init() tea.Cmd { return nil }

// Update handles a message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layoutStore()
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case TickMsg:
		if msg.Gen == m.gen && m.playing {
			return m, m.tick()
		}
	case EventsMsg:
		m.receive(msg)
	}
	return m, nil
}

// receive applies a live batch.
func (m *Model) receive(msg EventsMsg) {
	m.store.Truncate(msg.From)
	m.store.Append(msg.Events...)
	if msg.Problems != nil {
		m.problems = msg.Problems
	}
	if msg.Err != nil {
		m.err = msg.Err
	}
	m.done = m.done || msg.Done
	if m.done {
		m.store.SetEnded()
	}
	if m.follow || m.pos > m.store.Len() {
		m.pos = m.store.Len()
	}
}

// seek moves to frame n, clamped to the trace; frame 0 only when the
// trace is empty.
func (m *Model) seek(n int) {
	m.pos = max(min(1, m.store.Len()), min(n, m.store.Len()))
	m.scroll = 0
	m.follow = m.opts.Live && m.pos == m.store.Len()
}

// play starts or pauses playback.
func (m *Model) play() tea.Cmd {
	m.gen++
	if m.playing {
		m.playing = false
		return nil
	}
	if m.store.Len() == 0 {
		return nil
	}
	if m.pos >= m.store.Len() {
		m.seek(1)
	}
	m.playing = true
	return m.schedule()
}

// playQuantum is one display frame: events due within it (at the current
// speed) are shown together.
const playQuantum = 20 * time.Millisecond

// maxGap caps the wait between two events during playback.
const maxGap = 2 * time.Second

// tick advances playback to the next event, and on over the events due
// within the same display frame.
func (m *Model) tick() tea.Cmd {
	n := m.store.Len()
	if m.pos >= n {
		m.playing = false
		return nil
	}
	t0 := m.store.Event(m.pos).T
	quantum := int64(float64(playQuantum.Milliseconds()) * speeds[m.speed])
	next := m.pos + 1
	for next < n && m.store.Event(next).T-t0 < quantum {
		next++
	}
	m.seek(next)
	if m.pos >= n {
		m.playing = false // a live player now follows the newest event
		return nil
	}
	return m.schedule()
}

// schedule asks for the next tick after the gap to the next event, at the
// current speed.
func (m *Model) schedule() tea.Cmd {
	if m.pos >= m.store.Len() {
		return nil
	}
	gap := m.store.Event(m.pos).T
	if m.pos > 0 {
		gap -= m.store.Event(m.pos - 1).T
	}
	d := min(time.Duration(float64(gap)/speeds[m.speed]*float64(time.Millisecond)), maxGap)
	msg := TickMsg{Gen: m.gen}
	if m.opts.Schedule != nil {
		return m.opts.Schedule(d, msg)
	}
	return tea.Tick(d, func(time.Time) tea.Msg { return msg })
}

// View draws the screen.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Screen())
	v.AltScreen = true
	return v
}
