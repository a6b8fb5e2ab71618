package tui_test

import (
	"io"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/tui"
)

// endless is a line that never ends: 'x' bytes for ever. It counts what
// was read.
type endless struct{ read int }

func (r *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	r.read += len(p)
	return len(p), nil
}

// TestFeedLineLimit: a line over the 64 MiB limit ends the feed with an
// error naming it once the limit is passed, keeping what came before.
func TestFeedLineLimit(t *testing.T) {
	first := `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}` + "\n"
	tests := []struct {
		name    string
		before  string
		wantEvs int
		wantErr string
	}{
		{"the first line", "", 0, "line 1: longer than the 67108864-byte line limit"},
		{"after an event", first, 1, "line 2: longer than the 67108864-byte line limit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			flood := &endless{}
			evs, last, _ := feedAll(&tui.Feed{}, io.MultiReader(strings.NewReader(tt.before), flood))
			if !last.Done || last.Err == nil || !strings.Contains(last.Err.Error(), tt.wantErr) {
				t.Errorf("done %v, err %v; want an error containing %q", last.Done, last.Err, tt.wantErr)
			}
			if len(evs) != tt.wantEvs {
				t.Errorf("%d events, want %d", len(evs), tt.wantEvs)
			}
			if limit := event.DefaultMaxLine + 1<<20; flood.read > limit {
				t.Errorf("read %d bytes of the endless line, want at most %d", flood.read, limit)
			}
		})
	}
}
