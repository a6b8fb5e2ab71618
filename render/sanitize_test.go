package render_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

func TestSanitize(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain text is kept", "go test ./...\nok", "go test ./...\nok"},
		{"wide text is kept", "日本語 ✓", "日本語 ✓"},
		{"SGR colour", "\x1b[31mFAIL\x1b[0m done", "FAIL done"},
		{"CSI with intermediates", "a\x1b[?25lb\x1b[2 qc", "abc"},
		{"cursor movement", "x\x1b[2J\x1b[Hy", "xy"},
		{"OSC title with BEL", "\x1b]0;pwned\x07ok", "ok"},
		{"OSC 8 link keeps its text", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\ here", "click here"},
		{"unterminated OSC drops the rest", "ok\x1b]0;title", "ok"},
		{"DCS string", "a\x1bPq#0;2;0;0;0\x1b\\b", "ab"},
		{"two-byte escape", "a\x1b7b\x1bcc", "abc"},
		{"charset escape", "a\x1b(Bb", "ab"},
		{"lone ESC at end", "a\x1b", "a␛"},
		{"ESC before a control", "a\x1b\x01", "a␛␁"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"C1 OSC", "a\u009d0;t\u009cb", "ab"},
		{"other C1 dropped", "a\u0085b", "ab"},
		{"tab", "a\tb", "a    b"},
		{"CR LF", "a\r\nb", "a\nb"},
		{"lone CR is a line break", "10%\r50%", "10%\n50%"},
		{"BEL and NUL visible", "a\x07b\x00", "a␇b␀"},
		{"DEL visible", "a\x7fb", "a␡b"},
		{"invalid UTF-8", "a\xffb", "a\uFFFDb"},
		{"raw 0x9b byte is invalid UTF-8", "a\x9b31mb", "a\uFFFD31mb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := render.Sanitize(tc.in); got != tc.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestSanitizeCleanDoesNotAllocate(t *testing.T) {
	s := "✓ grep  src/main.rs  日本語\nsecond line"
	if n := testing.AllocsPerRun(100, func() { _ = render.Sanitize(s) }); n != 0 {
		t.Errorf("Sanitize of clean text allocated %v times", n)
	}
}

// TestRenderSanitizes checks that an escape in a failed tool's error is
// neither written nor counted: the row is as wide as its visible text.
func TestRenderSanitizes(t *testing.T) {
	tl := escapeTimeline("\x1b[31mError: boom\x1b[0m\x1b]0;title\x07")
	out := render.Render(tl, render.Options{Width: 80, Output: true})
	if strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x07) {
		t.Fatalf("control bytes reached the render:\n%q", out)
	}
	if !strings.Contains(out, "\n    Error: boom\n") {
		t.Errorf("error line not shown clean:\n%s", out)
	}
}

// escapeTimeline puts s into every untrusted field the renderer draws.
func escapeTimeline(s string) *timeline.Timeline {
	tool := func(id string, st timeline.Status) *timeline.Tool {
		return &timeline.Tool{ID: id, Name: s, Summary: s, Status: st, Error: s, Output: s, StartT: 1, EndT: 5, DurationMS: 4}
	}
	deleg := tool("d", timeline.StatusRunning)
	deleg.Delegation = &timeline.Delegation{Mode: "chain", Steps: []timeline.Step{{ID: "1", Agent: s, Task: s, Status: timeline.StepRunning}}}
	parent := tool("p", timeline.StatusOK)
	parent.Children = []*timeline.Item{{Kind: timeline.ItemTool, Tool: tool("c", timeline.StatusFailed)}}
	return &timeline.Timeline{Now: 9, Items: []*timeline.Item{
		{Kind: timeline.ItemUser, Text: s},
		{Kind: timeline.ItemThinking, Text: s},
		{Kind: timeline.ItemAssistant, Text: s, Interrupted: true},
		{Kind: timeline.ItemTool, Tool: tool("a", timeline.StatusFailed)},
		{Kind: timeline.ItemToolGroup, Tools: []*timeline.Tool{tool("b", timeline.StatusFailed), deleg, parent}},
		{Kind: timeline.ItemMetaTool, Tool: tool("m", timeline.StatusOK)},
		{Kind: timeline.ItemNotice, Level: timeline.NoticeInterrupted, Text: s},
		{Kind: timeline.ItemNotice, Level: timeline.NoticeError, Text: s},
		{Kind: timeline.ItemSeparator, Text: s},
		{Kind: timeline.ItemCompaction, Text: s},
	}}
}

// controlAt returns the offset of the first control character of out
// other than LF, or -1: C0, DEL, C1 and invalid UTF-8 all count.
func controlAt(out string) int {
	for i, r := range out {
		switch {
		case r == utf8.RuneError:
			if _, size := utf8.DecodeRuneInString(out[i:]); size == 1 {
				return i
			}
		case r == '\n':
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			return i
		}
	}
	return -1
}

// FuzzSanitize: no byte sequence in a tool's output, error, name or
// summary, or in any text, reaches the render as a control character
// (hence as a control sequence), no line is wider than the width, and
// Sanitize is idempotent.
func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"", "plain", "\x1b[31mred\x1b[0m", "\x1b]8;;http://x\x1b\\l\x1b]8;;\x1b\\",
		"\x1b]0;t\x07", "\u009b2J", "a\r\nb\rc\td", "\x1bP\x1b\\", "\xff\xfe", "日本\x1b[1m語"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		clean := render.Sanitize(s)
		if i := controlAt(clean); i >= 0 {
			t.Fatalf("Sanitize(%q) = %q: control at byte %d", s, clean, i)
		}
		if again := render.Sanitize(clean); again != clean {
			t.Fatalf("Sanitize is not idempotent on %q: %q then %q", s, clean, again)
		}
		for _, w := range []int{12, 40} {
			for _, ended := range []bool{false, true} {
				out := render.Render(escapeTimeline(s), render.Options{Width: w, Output: true, Ended: ended})
				if i := controlAt(out); i >= 0 {
					t.Fatalf("width %d: control at byte %d of the render of %q:\n%q", w, i, s, out)
				}
				for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
					if n := render.Width(line); n > w {
						t.Fatalf("width %d: line %q is %d cells", w, line, n)
					}
				}
			}
		}
	})
}
