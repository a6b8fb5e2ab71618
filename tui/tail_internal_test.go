package tui

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// joinAll is the tail the plain way: every chunk joined, then cut to
// depth.
func joinAll(chunks [][]Line, above bool, depth int) ([]Line, bool) {
	out := []Line{}
	for j := len(chunks) - 1; j >= 0; j-- {
		if j != len(chunks)-1 || above {
			out = append(out, Line{Role: RoleBlank})
		}
		out = append(out, chunks[j]...)
	}
	if len(out) > depth {
		return out[len(out)-depth:], true
	}
	return out, above
}

// TestTailLines: keeping only the tail's lines gives what joining every
// chunk and cutting it gives.
func TestTailLines(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		chunks := make([][]Line, rapid.IntRange(0, 5).Draw(t, "chunks"))
		n, id := 0, 0
		for j := range chunks {
			chunks[j] = make([]Line, rapid.IntRange(1, 6).Draw(t, "lines"))
			for k := range chunks[j] {
				id++
				chunks[j][k] = Line{Text: string(rune('a' + id%26)), Role: RoleTool}
			}
			n += len(chunks[j]) + 1
		}
		above := rapid.Bool().Draw(t, "above")
		depth := rapid.IntRange(1, 20).Draw(t, "depth")
		want, wantMore := joinAll(chunks, above, depth)
		got, more := tailLines(chunks, above, depth, n)
		if diff := cmp.Diff(want, got); diff != "" || more != wantMore {
			t.Fatalf("tail (-want +got):\n%s\nmore %v, want %v", diff, more, wantMore)
		}
	})
}

// TestKeepWindow: a seek keeps fewer frames on longer traces, and fewer
// still when the last item is a wide group that each frame renders whole.
func TestKeepWindow(t *testing.T) {
	tests := []struct {
		name     string
		n, width int
		want     int
	}{
		{"short trace", 1000, 3, maxKeep},
		{"a million events", 1_000_000, 3, 16},
		{"a group of 10,000", 10_001, 10_000, 26},
		{"a group of a million", 1_000_001, 1_000_000, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := keepWindow(tt.n, tt.width); got != tt.want {
				t.Errorf("keepWindow(%d, %d) = %d, want %d", tt.n, tt.width, got, tt.want)
			}
		})
	}
}
