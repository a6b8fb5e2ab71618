package tui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// Colours, as 256-colour indexes so that they degrade well to 16 colours.
var (
	colorAccent  = lipgloss.Color("33")  // running: blue
	colorMuted   = lipgloss.Color("245") // ok, finished groups, separators: grey
	colorFailed  = lipgloss.Color("196") // failed, errors: red
	colorAmber   = lipgloss.Color("214") // interrupted
	colorDenied  = lipgloss.Color("170") // denied: magenta
	colorPending = lipgloss.Color("44")  // pending permission: cyan
)

// Styles colours timeline lines and the player's chrome for one colour
// profile. With a profile of ASCII or less it adds nothing at all.
type Styles struct {
	plain  bool
	status map[timeline.Status]lipgloss.Style
	role   map[Role]lipgloss.Style

	// Chrome.
	title, pane, current, muted, bad, good lipgloss.Style
}

// NewStyles returns the styles for a colour profile. Profiles up to ASCII
// (no colour: NO_COLOR, a dumb terminal, output that is not a terminal)
// give plain styles that render every string unchanged.
func NewStyles(p colorprofile.Profile) *Styles {
	s := &Styles{plain: p <= colorprofile.ASCII}
	if s.plain {
		return s
	}
	st := newStyle
	s.status = map[timeline.Status]lipgloss.Style{
		timeline.StatusRunning:     st().Foreground(colorAccent),
		timeline.StatusOK:          st().Foreground(colorMuted),
		timeline.StatusFailed:      st().Foreground(colorFailed),
		timeline.StatusInterrupted: st().Foreground(colorAmber),
		timeline.StatusDenied:      st().Foreground(colorDenied),
		timeline.StatusPending:     st().Foreground(colorPending),
	}
	s.role = map[Role]lipgloss.Style{
		RoleUser:        st().Bold(true),
		RoleInterrupted: st().Foreground(colorAmber),
		RoleThinking:    st().Faint(true).Italic(true),
		RoleError:       st().Foreground(colorFailed).Faint(true),
		RoleOutput:      st().Faint(true),
		RoleSeparator:   st().Foreground(colorMuted),
	}
	s.title = st().Bold(true).Reverse(true)
	s.pane = st().Foreground(colorMuted)
	s.current = st().Reverse(true)
	s.muted = st().Foreground(colorMuted)
	s.bad = st().Foreground(colorFailed)
	s.good = st().Foreground(colorMuted)
	return s
}

// Plain reports whether the styles add nothing (no colour profile).
func (s *Styles) Plain() bool { return s.plain }

// Line styles one timeline line. A non-empty spinner replaces the glyph of
// a running tool row (the first ▶ of the line).
func (s *Styles) Line(l Line, spinner string) string {
	text := l.Text
	if spinner != "" && l.Role == RoleTool && l.Status == timeline.StatusRunning {
		text = strings.Replace(text, render.Glyph(timeline.StatusRunning), spinner, 1)
	}
	if s.plain || text == "" {
		return text
	}
	return s.lineStyle(l).Render(text)
}

// lineStyle picks the style of a line from its role and status.
func (s *Styles) lineStyle(l Line) lipgloss.Style {
	switch l.Role {
	case RoleTool, RoleNotice:
		st := s.statusStyle(l.Status)
		if l.Role == RoleNotice {
			st = st.Bold(true)
		}
		return st
	case RoleGroup:
		if l.Status == timeline.StatusRunning {
			return s.status[timeline.StatusRunning].Bold(true)
		}
		return s.status[timeline.StatusOK]
	case RoleStep:
		return s.stepStyle(string(l.Status))
	}
	if st, ok := s.role[l.Role]; ok {
		return st
	}
	return newStyle()
}

// statusStyle is the colour of a tool status; none for an unknown one.
func (s *Styles) statusStyle(status timeline.Status) lipgloss.Style {
	if st, ok := s.status[status]; ok {
		return st
	}
	return newStyle()
}

func (s *Styles) stepStyle(status string) lipgloss.Style {
	switch status {
	case timeline.StepRunning:
		return s.status[timeline.StatusRunning]
	case timeline.StepOK:
		return s.status[timeline.StatusOK]
	case timeline.StepError:
		return s.status[timeline.StatusFailed]
	}
	return newStyle().Faint(true)
}

// newStyle returns an empty style that leaves tabs alone, so that styling
// never changes a character.
func newStyle() lipgloss.Style {
	return lipgloss.NewStyle().TabWidth(lipgloss.NoTabConversion)
}

// Render draws a timeline like [render.Render], coloured for the profile.
// With a profile of ASCII or less (NO_COLOR, not a terminal) it returns
// render.Render's output unchanged, byte for byte.
func Render(tl *timeline.Timeline, opts render.Options, p colorprofile.Profile) string {
	s := NewStyles(p)
	if s.plain {
		return render.Render(tl, opts)
	}
	var b strings.Builder
	for _, l := range TimelineLines(tl, opts) {
		b.WriteString(s.Line(l, ""))
		b.WriteByte('\n')
	}
	return b.String()
}

// chrome styles a piece of the player's frame with st, unless plain.
func (s *Styles) chrome(st lipgloss.Style, text string) string {
	if s.plain || text == "" {
		return text
	}
	return st.Render(text)
}
