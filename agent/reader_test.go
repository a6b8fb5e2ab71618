package agent

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/term"
)

// screen reads testdata/NAME.ansi, a screen the real app showed (its
// styled rows, as term.Snapshot.Styled has them), into a snapshot.
func screen(t *testing.T, name string) term.Snapshot {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".ansi"))
	if err != nil {
		t.Fatal(err)
	}
	styled := strings.TrimSuffix(string(b), "\n")
	s := term.Snapshot{Styled: styled}
	for _, l := range strings.Split(styled, "\n") {
		s.Lines = append(s.Lines, strings.TrimRight(ansi.ReplaceAllString(l, ""), " "))
	}
	return s
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

func tool(id, name, status string) browser.Row {
	return browser.Row{Kind: "tool", ID: id, Name: name, Status: status}
}

// TestReaders reads screens the real apps showed (captured with
// toolsim-agent --screens) as a user reads them.
func TestReaders(t *testing.T) {
	asked := []Asked{{"call_1", "grep"}, {"call_2", "read"}}
	tests := []struct {
		name   string
		p      *Profile
		screen string
		want   []browser.Row
	}{
		{"claude: both running", claude, "claude-started",
			[]browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "running")}},
		{"claude: progress under a running call", claude, "claude-progress",
			[]browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "running")}},
		{"claude: green bullet returned", claude, "claude-one-done",
			[]browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "ok")}},
		{"claude: red bullet failed", claude, "claude-failed",
			[]browser.Row{tool("call_1", "grep", "failed"), tool("call_2", "read", "ok")}},
		{"codex: both running", codex, "codex-started",
			[]browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "running")}},
		{"codex: one called", codex, "codex-one-done",
			[]browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "ok")}},
		{"codex: a failed call gets a second row", codex, "codex-failed",
			[]browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "ok"), tool("grep#2", "grep", "failed")}},
		{"gemini: both running (the spinner's frame as the mark)", gemini, "gemini-started",
			[]browser.Row{tool("call_1", "grep", "running"), tool("call_2", "read", "running")}},
		{"gemini: x failed", gemini, "gemini-failed",
			[]browser.Row{tool("call_1", "grep", "failed"), tool("call_2", "read", "running")}},
		{"gemini: check mark returned", gemini, "gemini-turn-end",
			[]browser.Row{tool("call_1", "grep", "failed"), tool("call_2", "read", "ok")}},
		{"gemini: after --resume a failed row shows the tool's description, read by name and order", gemini, "gemini-resumed",
			[]browser.Row{tool("call_1", "grep", "failed"), tool("call_2", "read", "ok")}},
		{"opencode: grey rows running, state not told", opencode, "opencode-started",
			[]browser.Row{tool("call_1", "grep", ""), tool("call_2", "read", "")}},
		{"opencode: grey rows returned, state not told", opencode, "opencode-turn-end",
			[]browser.Row{tool("call_1", "grep", ""), tool("call_2", "read", "")}},
		{"opencode: red rows of an interrupted message", opencode, "opencode-cancelled",
			[]browser.Row{tool("call_1", "grep", "interrupted"), tool("call_2", "glob", "interrupted"),
				tool("call_3", "read", "interrupted"), tool("call_4", "read", "interrupted")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.p.Read(screen(t, tt.screen), asked)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReady tells a screen waiting for a prompt from one in a turn.
func TestReady(t *testing.T) {
	tests := []struct {
		name       string
		p          *Profile
		screen     string
		ready, bus bool
	}{
		{"claude in a turn", claude, "claude-started", false, true},
		{"codex in a turn", codex, "codex-started", true, true},
		{"codex after the turn", codex, "codex-turn-end", true, false},
		{"gemini in a turn", gemini, "gemini-started", true, true},
		{"gemini after the turn", gemini, "gemini-turn-end", true, false},
		{"opencode in a turn", opencode, "opencode-started", false, true},
		{"opencode after the turn", opencode, "opencode-turn-end", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := screen(t, tt.screen)
			if got := tt.p.Ready(s); got != tt.ready {
				t.Errorf("Ready = %v, want %v", got, tt.ready)
			}
			if got := tt.p.Busy(s); got != tt.bus {
				t.Errorf("Busy = %v, want %v", got, tt.bus)
			}
		})
	}
}

// TestGeminiLines reads Gemini CLI's row marks and prompt states from
// single lines as the app draws them.
func TestGeminiLines(t *testing.T) {
	row := func(mark string) string {
		return `│ ` + mark + `  grep (toolsim MCP Server) {"call":"call_1"}     │`
	}
	for _, tt := range []struct{ mark, want string }{
		{"✓", "ok"}, {"x", "failed"}, {"-", "interrupted"}, {"o", "running"}, {"⊷", "running"}, {"?", "running"},
	} {
		got := geminiRows(term.Snapshot{Lines: []string{row(tt.mark)}}, nil)
		if diff := cmp.Diff([]browser.Row{tool("call_1", "grep", tt.want)}, got); diff != "" {
			t.Errorf("mark %q (-want +got):\n%s", tt.mark, diff)
		}
	}
	ready := []struct {
		name  string
		lines []string
		want  bool
	}{
		{"an empty input box", []string{" *   Type your message or @path/to/file"}, true},
		{"still initializing: what is typed is queued", []string{"ℹ Initializing... Prompts will be queued.", " *   Type your message or @path/to/file"}, false},
		{"a turn below the last input box", []string{" *   Type your message or @path/to/file", " ⠙ Thinking... (esc to cancel, 0s)"}, false},
		{"no input box", []string{"Tips for getting started:"}, false},
	}
	for _, tt := range ready {
		if got := geminiReady(term.Snapshot{Lines: tt.lines}); got != tt.want {
			t.Errorf("%s: geminiReady = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestOpencodeRed reads a red opencode row (a failed or aborted call) as
// failed, whatever else is on the line.
func TestOpencodeRed(t *testing.T) {
	line := "     ⚙ toolsim_grep [call=call_1]"
	styled := "     \x1b[38;2;224;108;117m⚙\x1b[38;2;255;255;255m \x1b[38;2;224;108;117mtoolsim_grep [call=call_1]"
	got := opencodeRows(term.Snapshot{Lines: []string{line}, Styled: styled}, nil)
	if diff := cmp.Diff([]browser.Row{tool("call_1", "grep", "failed")}, got); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
}
