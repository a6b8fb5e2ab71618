package spell_test

import (
	"testing"

	"github.com/toolsim/toolsim/internal/spell"
)

// TestDistance counts insertions, deletions, substitutions and swaps of
// neighbours, one each.
func TestDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"seeds", "seeds", 0}, {"", "abc", 3}, {"sed", "seeds", 2},
		{"wdth", "width", 1}, {"tool_strat", "tool_start", 1}, {"abc", "xyz", 3},
	} {
		if got := spell.Distance(tt.a, tt.b); got != tt.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestNearest names the nearest name within 2 edits and under half its
// length, ignoring case, the first on a tie, and none when all are far.
func TestNearest(t *testing.T) {
	names := []string{"seeds", "workers", "width", "o"}
	for _, tt := range []struct {
		word, want string
	}{
		{"sed", "seeds"}, {"SEEDS", "seeds"}, {"wrokers", "workers"}, {"widht", "width"},
		{"p", ""}, {"bogus", ""}, {"work", ""},
	} {
		got, ok := spell.Nearest(tt.word, names)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("Nearest(%q) = %q, %v; want %q", tt.word, got, ok, tt.want)
		}
	}
}
