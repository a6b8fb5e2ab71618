package tui_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
	"github.com/toolsim/toolsim/tui"
)

// finalTimeline replays a scenario to its end.
func finalTimeline(t *testing.T, name string) *timeline.Timeline {
	evs := scenarioEvents(t, name)
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	return e.Timeline()
}

// TestRenderFallsBackToPlain: without colour (NO_COLOR, not a terminal)
// the styled layer is the plain render, byte for byte.
func TestRenderFallsBackToPlain(t *testing.T) {
	for _, name := range scenarioNames(t) {
		tl := finalTimeline(t, name)
		for _, p := range []colorprofile.Profile{colorprofile.NoTTY, colorprofile.ASCII} {
			for _, opts := range []render.Options{{Width: 40}, {Width: 80, Output: true}} {
				if got, want := tui.Render(tl, opts, p), render.Render(tl, opts); got != want {
					t.Errorf("%s, %v, %+v: styled render differs from the plain one:\n%s", name, p, opts, cmp.Diff(want, got))
				}
			}
		}
	}
}

// TestRenderStyledKeepsText: with colour, stripping the styling gives the
// plain render back, at every step of every scenario; and every line of a
// tool item gets a role (the role walk agrees with the renderer).
func TestRenderStyledKeepsText(t *testing.T) {
	for _, name := range scenarioNames(t) {
		evs := scenarioEvents(t, name)
		e := engine.New(engine.Options{})
		for i := range evs {
			e.Apply(&evs[i])
			for _, opts := range []render.Options{{Width: 40}, {Width: 100, Output: true}} {
				tl := e.Timeline()
				if got, want := stripSGR(tui.Render(tl, opts, colorprofile.ANSI256)), render.Render(tl, opts); got != want {
					t.Fatalf("%s after seq %d: stripped styled render differs (-plain +stripped):\n%s", name, evs[i].Seq, cmp.Diff(want, got))
				}
				checkRoles(t, fmt.Sprintf("%s after seq %d", name, evs[i].Seq), tl, opts)
			}
		}
	}
}

// checkRoles fails when a line of a tool item was left without a role.
func checkRoles(t *testing.T, where string, tl *timeline.Timeline, opts render.Options) {
	t.Helper()
	for _, it := range tl.Items {
		switch it.Kind {
		case timeline.ItemTool, timeline.ItemToolGroup, timeline.ItemMetaTool:
			for _, l := range tui.ItemLines(it, tl.Now, opts) {
				if l.Role == tui.RolePlain {
					t.Fatalf("%s: line %q of a %s item has no role", where, l.Text, it.Kind)
				}
			}
		}
	}
}

// TestStatusColours: each status has its own colour, the group header is
// accented while running, thinking is dim.
func TestStatusColours(t *testing.T) {
	st := tui.NewStyles(colorprofile.ANSI256)
	tests := []struct {
		name string
		line tui.Line
		want string // an SGR parameter the styled line must carry
	}{
		{"running accent", tui.Line{Text: "  ▶ grep  x  1s", Role: tui.RoleTool, Status: timeline.StatusRunning}, "38;5;33"},
		{"ok muted", tui.Line{Text: "  ✓ grep  x  1s", Role: tui.RoleTool, Status: timeline.StatusOK}, "38;5;245"},
		{"failed red", tui.Line{Text: "  ✗ grep  x  1s", Role: tui.RoleTool, Status: timeline.StatusFailed}, "38;5;196"},
		{"interrupted amber", tui.Line{Text: "  ⚠ grep  x  1s", Role: tui.RoleTool, Status: timeline.StatusInterrupted}, "38;5;214"},
		{"denied", tui.Line{Text: "  ⊘ bash  rm", Role: tui.RoleTool, Status: timeline.StatusDenied}, "38;5;170"},
		{"pending", tui.Line{Text: "  ? bash  rm", Role: tui.RoleTool, Status: timeline.StatusPending}, "38;5;44"},
		{"group running accented", tui.Line{Text: "  ⫘ 2 tools running", Role: tui.RoleGroup, Status: timeline.StatusRunning}, "1;38;5;33"},
		{"group done muted", tui.Line{Text: "  ⫘ 2 tools  1s", Role: tui.RoleGroup, Status: timeline.StatusOK}, "38;5;245"},
		{"thinking dim", tui.Line{Text: "  ∴ hmm", Role: tui.RoleThinking}, "3;2m"},
		{"error red", tui.Line{Text: "      exit 1", Role: tui.RoleError, Status: timeline.StatusFailed}, "2;38;5;196m"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := st.Line(tt.line, "")
			if !strings.Contains(got, "\x1b["+tt.want) {
				t.Errorf("styled line %q lacks SGR %q", showEscapes(got), tt.want)
			}
			if stripSGR(got) != tt.line.Text {
				t.Errorf("styling changed the text: %q", stripSGR(got))
			}
		})
	}
	if got := tui.NewStyles(colorprofile.ASCII).Line(tests[0].line, "⠋"); got != "  ⠋ grep  x  1s" {
		t.Errorf("plain running row with a spinner = %q", got)
	}
}

// TestStyledTabs: styling never turns a tab into spaces.
func TestStyledTabs(t *testing.T) {
	st := tui.NewStyles(colorprofile.TrueColor)
	for _, role := range []tui.Role{tui.RolePlain, tui.RoleAssistant, tui.RoleUser, tui.RoleTool, tui.RoleStep} {
		l := tui.Line{Text: "a\tb", Role: role, Status: "odd"}
		if got := stripSGR(st.Line(l, "")); got != l.Text {
			t.Errorf("role %d: %q", role, got)
		}
	}
}
