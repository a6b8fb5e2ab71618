package engineproto_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engineproto"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name, line string
		want       []string
	}{
		{"words", "python3 engine.py", []string{"python3", "engine.py"}},
		{"blanks and tabs", "  node\tadapter.mjs  ", []string{"node", "adapter.mjs"}},
		{"quoted word", "node 'my engine.mjs' --x", []string{"node", "my engine.mjs", "--x"}},
		{"quote inside quotes", "echo 'it''s'", []string{"echo", "it's"}},
		{"empty quotes are a word", "run ''", []string{"run", ""}},
		{"no shell", "a $HOME \"b c\"", []string{"a", "$HOME", `"b`, `c"`}},
		{"empty", "   ", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, engineproto.SplitCommand(tt.line)); diff != "" {
				t.Errorf("SplitCommand(%q) (-want +got):\n%s", tt.line, diff)
			}
		})
	}
}
