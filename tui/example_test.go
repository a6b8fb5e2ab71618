package tui_test

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/colorprofile"

	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
	"github.com/toolsim/toolsim/tui"
)

// Render colours render.Render's lines by what they show without changing
// a character: with the ASCII profile (NO_COLOR, not a terminal) it is the
// plain render byte for byte; with 256 colours a failed tool is red.
func ExampleRender() {
	tl := &timeline.Timeline{Now: 70, Items: []*timeline.Item{
		{Kind: timeline.ItemTool, Tool: &timeline.Tool{ID: "t1", Name: "Bash", Summary: "make", Status: timeline.StatusFailed, StartT: 0, EndT: 70, DurationMS: 70}},
	}}
	opts := render.Options{Width: 40}
	plain := tui.Render(tl, opts, colorprofile.ASCII)
	fmt.Println(plain == render.Render(tl, opts))
	fmt.Println(strconv.Quote(strings.TrimRight(tui.Render(tl, opts, colorprofile.ANSI256), "\n")))
	// Output:
	// true
	// "\x1b[38;5;196m  ✗ Bash  make  70ms\x1b[m"
}
