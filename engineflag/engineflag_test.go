package engineflag

import (
	"testing"
	"time"
)

func TestDurationArg(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{60 * time.Second, "60s"},
		{90 * time.Minute, "5400s"},
		{1500 * time.Millisecond, "1500ms"},
		{1500 * time.Microsecond, "1.5ms"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := durationArg(tt.d)
			if got != tt.want {
				t.Errorf("durationArg(%v) = %q, want %q", tt.d, got, tt.want)
			}
			if back, err := time.ParseDuration(got); err != nil || back != tt.d {
				t.Errorf("%q parses back to %v, %v; want %v", got, back, err, tt.d)
			}
		})
	}
}
