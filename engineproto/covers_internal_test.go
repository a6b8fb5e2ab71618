package engineproto

import (
	"strings"
	"testing"
)

// TestCovers: a delta must carry every item it adds, whether it adds a
// few (a bit each) or many (a slice).
func TestCovers(t *testing.T) {
	span := func(lo, hi int, skip int) []int {
		var out []int
		for i := lo; i < hi; i++ {
			if i != skip {
				out = append(out, i)
			}
		}
		return out
	}
	tests := []struct {
		name      string
		prev, n   int
		idx       []int
		wantError string // "" for none
	}{
		{"nothing added", 3, 3, []int{1}, ""},
		{"shorter", 3, 1, nil, ""},
		{"few added, all carried", 2, 5, []int{4, 0, 2, 3}, ""},
		{"few added, one missing", 2, 5, []int{4, 0, 1, 2}, "item 3 is neither"},
		{"too few carried", 0, 2, []int{0}, "the delta carries 1"},
		{"many added, all carried", 10, 90, span(0, 90, -1), ""},
		{"many added, one missing", 10, 90, append(span(10, 90, 75), 3), "item 75 is neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := covers(tt.prev, tt.n, len(tt.idx), func(k int) int { return tt.idx[k] })
			switch {
			case tt.wantError == "" && err != nil:
				t.Errorf("covers: %v, want nil", err)
			case tt.wantError != "" && (err == nil || !strings.Contains(err.Error(), tt.wantError)):
				t.Errorf("covers: %v, want an error with %q", err, tt.wantError)
			}
		})
	}
}
