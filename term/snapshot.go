package term

import (
	"regexp"
	"strings"
)

// Pos is a screen position, zero-based: X the column, Y the row.
type Pos struct {
	X, Y int
}

// Snapshot is the screen at one moment.
type Snapshot struct {
	// Lines are the screen's rows, one per row (len(Lines) is the
	// screen's height), trailing spaces trimmed.
	Lines []string
	// Styled is the screen with its styles and links as ANSI escape
	// sequences, rows joined by "\n".
	Styled string
	// Cursor is where the cursor is.
	Cursor Pos
	// Alt reports whether the program shows the alternate screen (a
	// full-screen app's).
	Alt bool
}

// String is the screen's text: its rows joined by "\n", trailing empty
// rows left out.
func (s Snapshot) String() string {
	n := len(s.Lines)
	for n > 0 && s.Lines[n-1] == "" {
		n--
	}
	return strings.Join(s.Lines[:n], "\n")
}

// Contains reports whether the screen's text holds sub. The text's rows
// are joined by "\n", so sub matches within a row unless it holds "\n".
func (s Snapshot) Contains(sub string) bool { return strings.Contains(s.String(), sub) }

// Match reports whether the screen's text matches re (rows joined by
// "\n": use (?m) for ^ and $ at row ends).
func (s Snapshot) Match(re *regexp.Regexp) bool { return re.MatchString(s.String()) }

// Snapshot returns the screen as it is now.
func (t *Term) Snapshot() Snapshot {
	s, _ := t.observe()
	return s
}

// observe returns the screen and the channel that closes at its next
// change, read together so that no change slips between them.
func (t *Term) observe() (Snapshot, <-chan struct{}) {
	t.mu.Lock()
	defer t.mu.Unlock()
	rows := t.emu.Height()
	lines := strings.Split(t.emu.String(), "\n")
	for len(lines) < rows {
		lines = append(lines, "")
	}
	lines = lines[:rows]
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \r")
	}
	pos := t.emu.CursorPosition()
	return Snapshot{
		Lines:  lines,
		Styled: t.emu.Render(),
		Cursor: Pos{X: pos.X, Y: pos.Y},
		Alt:    t.emu.IsAltScreen(),
	}, t.changed
}
