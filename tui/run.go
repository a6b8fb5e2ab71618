package tui

import (
	"io"
	"os"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
)

// Run shows the player on out, reading keys from the terminal, until the
// user quits; feed, when given, runs on its own goroutine and sends the
// model its events (Feed.Run). It closes the model, and returns the
// program's error or the model's (Err).
func (m *Model) Run(out io.Writer, profile colorprofile.Profile, feed func(send func(tea.Msg))) error {
	defer m.Close()
	p := tea.NewProgram(m, tea.WithOutput(out), tea.WithColorProfile(profile))
	if feed != nil {
		go feed(p.Send)
	}
	if _, err := p.Run(); err != nil {
		return err
	}
	return m.Err()
}

// ColorProfile detects the colour profile of w (a terminal, usually
// stdout); NO_COLOR set to anything turns colour off, and the player then
// draws the plain render.
func ColorProfile(w io.Writer) colorprofile.Profile {
	p := colorprofile.Detect(w, os.Environ())
	if os.Getenv("NO_COLOR") != "" {
		p = min(p, colorprofile.ASCII)
	}
	return p
}
