package agent

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/term"
)

// styledLines are the snapshot's rows with their styles, one per row of
// Lines.
func styledLines(s term.Snapshot) []string {
	out := strings.Split(s.Styled, "\n")
	for len(out) < len(s.Lines) {
		out = append(out, "")
	}
	return out
}

// rgb is a 24-bit colour.
type rgb struct{ r, g, b int }

// sgr matches a foreground colour: 38;2;R;G;B or 38;5;N.
var sgr = regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?38;(?:2;(\d+);(\d+);(\d+)|5;(\d+))[0-9;]*m`)

// colourOf is the foreground colour in force where mark first appears on
// the styled row (the last colour set before it), and whether one was.
func colourOf(styled, mark string) (rgb, bool) {
	i := strings.Index(styled, mark)
	if i < 0 {
		return rgb{}, false
	}
	ms := sgr.FindAllStringSubmatchIndex(styled[:i], -1)
	if len(ms) == 0 {
		return rgb{}, false
	}
	m := ms[len(ms)-1]
	reset := strings.LastIndex(styled[:i], "\x1b[m")
	if reset > m[0] {
		return rgb{}, false // reset after the colour: the default colour
	}
	num := func(k int) int {
		if m[2*k] < 0 {
			return -1
		}
		n, _ := strconv.Atoi(styled[m[2*k]:m[2*k+1]])
		return n
	}
	if n := num(4); n >= 0 {
		return ansi256(n), true
	}
	return rgb{num(1), num(2), num(3)}, true
}

// ansi256 approximates a 256-colour palette entry.
func ansi256(n int) rgb {
	base := []rgb{{0, 0, 0}, {205, 0, 0}, {0, 205, 0}, {205, 205, 0}, {0, 0, 238}, {205, 0, 205}, {0, 205, 205}, {229, 229, 229},
		{127, 127, 127}, {255, 0, 0}, {0, 255, 0}, {255, 255, 0}, {92, 92, 255}, {255, 0, 255}, {0, 255, 255}, {255, 255, 255}}
	switch {
	case n < 16:
		return base[n]
	case n < 232:
		n -= 16
		step := func(v int) int {
			if v == 0 {
				return 0
			}
			return 55 + 40*v
		}
		return rgb{step(n / 36), step(n / 6 % 6), step(n % 6)}
	}
	v := 8 + 10*(n-232)
	return rgb{v, v, v}
}

// green and red say whether a colour reads as a success or a failure
// mark; grey ones (all three channels close) read as neither.
func (c rgb) green() bool { return c.g > c.r+40 && c.g > c.b+20 }
func (c rgb) red() bool   { return c.r > c.g+60 && c.r > c.b+40 }

// sgrAll matches any SGR sequence.
var sgrAll = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// dimAfter reports whether the first visible character after mark on
// the styled row is drawn dim (SGR 2): an input line's placeholder, not
// typed text. A row with nothing after mark reads as dim too.
func dimAfter(styled, mark string) bool {
	i := strings.Index(styled, mark)
	if i < 0 {
		return false
	}
	dim := false
	rest := styled[i+len(mark):]
	for len(rest) > 0 {
		if loc := sgrAll.FindStringSubmatchIndex(rest); loc != nil && loc[0] == 0 {
			for _, p := range strings.Split(rest[loc[2]:loc[3]], ";") {
				switch p {
				case "2":
					dim = true
				case "", "0", "22":
					dim = false
				}
			}
			rest = rest[loc[1]:]
			continue
		}
		if rest[0] == ' ' {
			rest = rest[1:]
			continue
		}
		return dim
	}
	return true
}
