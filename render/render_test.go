package render

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rivo/uniseg"
	"github.com/toolsim/toolsim/timeline"
)

func TestDuration(t *testing.T) {
	tests := []struct {
		ms   int64
		want string
	}{
		{0, "0ms"}, {45, "45ms"}, {999, "999ms"}, {1000, "1s"}, {2300, "2s 300ms"},
		{59_999, "59s 999ms"}, {60_000, "1m"}, {65_000, "1m 5s"}, {3_600_000, "1h"}, {3_720_000, "1h 2m"}, {-5, "0ms"},
	}
	for _, tt := range tests {
		if got := Duration(tt.ms); got != tt.want {
			t.Errorf("Duration(%d) = %q, want %q", tt.ms, got, tt.want)
		}
	}
}

func TestFit(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello world", 6, "hello…"},
		{"日本語テキスト", 7, "日本語…"}, // wide runes are 2 cells; never split
		{"日本語", 6, "日本語"},
		{"e\u0301e\u0301e\u0301e\u0301", 3, "e\u0301e\u0301…"}, // combining marks stay with their base
		{"👩‍💻👩‍💻👩‍💻", 5, "👩‍💻👩‍💻…"},
		{"abc", 0, ""},
	}
	for _, tt := range tests {
		got := fit(tt.s, tt.w)
		if got != tt.want || width(got) > max(tt.w, 0) {
			t.Errorf("fit(%q, %d) = %q (width %d), want %q", tt.s, tt.w, got, width(got), tt.want)
		}
	}
}

// TestNarrowGlyphs checks the fast path of width against uniseg.
func TestNarrowGlyphs(t *testing.T) {
	for _, r := range narrowGlyphs {
		if w := uniseg.StringWidth(string(r)); w != 1 {
			t.Errorf("glyph %q is %d cells wide in uniseg, the fast path counts 1", r, w)
		}
	}
	for _, s := range []string{"plain ascii", "café ñ", "  ⫘ 3 tools  │ ▸ ✓ ✗ ⚠ ⊘", "日本", "e\u0301", "👍", "\t"} {
		if got, want := width(s), uniseg.StringWidth(s); got != want {
			t.Errorf("width(%q) = %d, uniseg says %d", s, got, want)
		}
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		s    string
		w    int
		want []string
	}{
		{"short", 10, []string{"short"}},
		{"the quick brown fox", 10, []string{"the quick", "brown fox"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"日本語のテキスト", 5, []string{"日本", "語の", "テキ", "スト"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, wrap(tt.s, tt.w)); diff != "" {
			t.Errorf("wrap(%q, %d) (-want +got):\n%s", tt.s, tt.w, diff)
		}
	}
}

func TestSnippet(t *testing.T) {
	five := "1\n2\n3\n4\n5\n"
	if diff := cmp.Diff([]string{"1", "2", "3", "4", "5"}, Snippet(five)); diff != "" {
		t.Errorf("five lines (-want +got):\n%s", diff)
	}
	twelve := strings.Repeat("line\n", 10) + "last-but-one\nlast\n"
	want := []string{"line", "line", "… +8 lines", "last-but-one", "last"}
	if diff := cmp.Diff(want, Snippet(twelve)); diff != "" {
		t.Errorf("twelve lines (-want +got):\n%s", diff)
	}
}

func tool(id, name, summary string, status timeline.Status, start, end int64) *timeline.Tool {
	return &timeline.Tool{ID: id, Name: name, Summary: summary, Status: status, StartT: start, EndT: end, DurationMS: end - start}
}

// TestSpecColumns renders the seed 000 "5 parallel tools" picture.
func TestSpecColumns(t *testing.T) {
	tl := &timeline.Timeline{Now: 2300, Items: []*timeline.Item{{Kind: timeline.ItemToolGroup, Tools: []*timeline.Tool{
		tool("1", "grep", "src/", timeline.StatusOK, 0, 200),
		tool("2", "grep", "tests/", timeline.StatusOK, 0, 180),
		tool("3", "read", "README.md", timeline.StatusOK, 0, 45),
		tool("4", "bash", "cargo test", timeline.StatusRunning, 0, 0),
		tool("5", "bash", "cargo clippy", timeline.StatusRunning, 500, 0),
	}}}}
	want := "" +
		"  ⫘ 5 tools running\n" +
		"    ✓ grep  src/             200ms\n" +
		"    ✓ grep  tests/           180ms\n" +
		"    ✓ read  README.md         45ms\n" +
		"    ▶ bash  cargo test       2s 300ms\n" +
		"    ▶ bash  cargo clippy     1s 800ms\n"
	if diff := cmp.Diff(want, Render(tl, Options{Width: 80})); diff != "" {
		t.Errorf("render (-want +got):\n%s", diff)
	}
}

func TestSingleAndGlyphs(t *testing.T) {
	failed := tool("f", "bash", "make", timeline.StatusFailed, 0, 12)
	failed.Error = "exit 2\nmore"
	tl := &timeline.Timeline{Now: 50, Items: []*timeline.Item{
		{Kind: timeline.ItemTool, Tool: tool("a", "bash", "ls", timeline.StatusOK, 0, 12)},
		{Kind: timeline.ItemTool, Tool: failed},
		{Kind: timeline.ItemTool, Tool: tool("d", "rm", "-rf /", timeline.StatusDenied, 0, 3)},
		{Kind: timeline.ItemTool, Tool: tool("p", "edit", "", timeline.StatusPending, 0, 0)},
		{Kind: timeline.ItemTool, Tool: tool("i", "grep", "x", timeline.StatusInterrupted, 10, 40)},
		{Kind: timeline.ItemAssistant, Text: "Stopped here", Interrupted: true},
		{Kind: timeline.ItemNotice, Level: timeline.NoticeInterrupted},
		{Kind: timeline.ItemSeparator, Text: "Turn complete"},
	}}
	want := "  ✓ bash  ls  12ms\n\n  ✗ bash  make  12ms\n    exit 2\n\n  ⊘ rm  -rf /\n\n  ? edit\n\n  ⚠ grep  x  30ms\n\n" +
		"│ ▸ Stopped here\n│ ⚠ interrupted\n\n  ⚠ Interrupted\n\n── Turn complete ──\n"
	if diff := cmp.Diff(want, Render(tl, Options{Width: 80})); diff != "" {
		t.Errorf("render (-want +got):\n%s", diff)
	}
}

func TestNarrowWidthCutsSummary(t *testing.T) {
	tl := &timeline.Timeline{Items: []*timeline.Item{
		{Kind: timeline.ItemTool, Tool: tool("a", "bash", "find . -name '*.go' -exec grep -l TODO {} +", timeline.StatusOK, 0, 12)},
	}}
	want := "  ✓ bash  find . -name '*.go' -ex…  12ms\n" // exactly 40 cells
	if got := Render(tl, Options{Width: 40}); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestLongNamesKeepDurations: names longer than the row cut, durations stay.
func TestLongNamesKeepDurations(t *testing.T) {
	long := "Read file /Users/someone/projects/spring-petclinic/src/main/resources/application.properties"
	tl := &timeline.Timeline{Items: []*timeline.Item{
		{Kind: timeline.ItemToolGroup, Tools: []*timeline.Tool{
			tool("a", long, "", timeline.StatusOK, 0, 162), tool("b", "List", "src/", timeline.StatusOK, 0, 1165),
		}},
		{Kind: timeline.ItemTool, Tool: tool("c", long, "x", timeline.StatusOK, 0, 2300)},
	}}
	out := Render(tl, Options{Width: 60})
	for _, want := range []string{"162ms\n", "1s 165ms\n", "2s 300ms\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("render lost duration %q:\n%s", want, out)
		}
	}
}

func TestTextTrimsBlankLines(t *testing.T) {
	tl := &timeline.Timeline{Items: []*timeline.Item{
		{Kind: timeline.ItemUser, Text: "make it pass\n\n\n"},
		{Kind: timeline.ItemAssistant, Text: "\nDone.\n\nTwo paragraphs.\n"},
	}}
	want := "> make it pass\n\n│ ▸ Done.\n│\n│   Two paragraphs.\n"
	if diff := cmp.Diff(want, Render(tl, Options{Width: 40})); diff != "" {
		t.Errorf("render (-want +got):\n%s", diff)
	}
}

func TestFitLabelKeepsDelegationSuffix(t *testing.T) {
	steps := &timeline.Delegation{Mode: "chain", Steps: []timeline.Step{{Status: timeline.StepOK}, {Status: timeline.StepRunning}}}
	tests := []struct {
		name    string
		summary string
		d       *timeline.Delegation
		w       int
		want    string
	}{
		{"fits", "chain (2 steps)", steps, 40, "chain (2 steps)  1 ok / 2"},
		{"summary cut first", "chain (2 steps)", steps, 18, "chain (…  1 ok / 2"},
		{"summary left out below 4 cells", "chain (2 steps)", steps, 13, "1 ok / 2"},
		{"suffix alone cut when wider", "chain (2 steps)", steps, 6, "chain…"},
		{"no summary", "", steps, 6, "1 ok…"},
		{"no delegation: cut from the right", "go test ./... -run TestX", nil, 10, "go test .…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &timeline.Tool{Summary: tt.summary, Delegation: tt.d}
			got := fitLabel(tool, label(tool), tt.w)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("fitLabel(%q, %d) (-want +got):\n%s", label(tool), tt.w, diff)
			}
			if width(got) > tt.w {
				t.Errorf("%q is wider than %d cells", got, tt.w)
			}
		})
	}
}
