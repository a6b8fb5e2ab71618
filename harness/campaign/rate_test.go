package campaign_test

import (
	"testing"

	"github.com/toolsim/toolsim/harness/campaign"
)

// TestRate prints a slow engine's rate with its digits, never as 0.
func TestRate(t *testing.T) {
	for _, tt := range []struct {
		r    float64
		want string
	}{
		{0, "0"}, {0.0623, "0.062"}, {0.43, "0.43"}, {0.999, "1"}, {1.04, "1.0"}, {4.35, "4.3"}, {9.94, "9.9"}, {10, "10"}, {2629.4, "2629"},
	} {
		if got := campaign.Rate(tt.r); got != tt.want {
			t.Errorf("Rate(%v) = %q, want %q", tt.r, got, tt.want)
		}
	}
}
