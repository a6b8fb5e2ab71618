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
