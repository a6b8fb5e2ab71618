package tui

import "testing"

// TestCheckpointSpacing: checkpoints are DefaultCheckpointEvery apart
// until their sizes (their positions) would exceed the budget; then they
// spread out.
func TestCheckpointSpacing(t *testing.T) {
	tests := []struct {
		name              string
		n, every, budget  int
		want, checkpoints int
	}{
		{"shorter than the spacing", 1000, 4096, 1 << 22, 4096, 0},
		{"small trace", 20_000, 4096, 1 << 22, 4096, 4},
		{"100k events", 100_000, 4096, 1 << 22, 4096, 24},
		{"a million events", 1_000_000, 4096, 1 << 22, 114_688, 8},
		{"tiny budget", 100_000, 4096, 1, 4096 * 25, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := checkpointSpacing(tt.n, tt.every, tt.budget)
			m := (tt.n - 1) / s
			if s != tt.want || m != tt.checkpoints {
				t.Errorf("spacing %d (%d checkpoints), want %d (%d)", s, m, tt.want, tt.checkpoints)
			}
			if m > 0 && s*m*(m+1)/2 > tt.budget {
				t.Errorf("checkpoints hold %d events' worth, over the budget %d", s*m*(m+1)/2, tt.budget)
			}
		})
	}
}
