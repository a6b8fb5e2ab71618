package tracemeta

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

func TestReadGivesBackWhatWithWrote(t *testing.T) {
	want := Replay{Generated: true, LogFaults: fault.List{fault.Torn, fault.NoSeq}, FaultSeed: 9, ReconnectAt: 4, BatchIDs: true}
	for _, source := range []string{SourceSim, SourceExhaustive, SourceShrink} {
		h := Header(source, 7, Meta{Oracle: "model"}.With(want))
		got, err := Read(h)
		if err != nil {
			t.Fatalf("%s: %v", source, err)
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s: (-want +got):\n%s", source, d)
		}
		if (h.Seed != nil) != (source == SourceSim) {
			t.Errorf("%s: seed recorded = %v, want only for %s", source, h.Seed != nil, SourceSim)
		}
	}
}

func TestRead(t *testing.T) {
	meta := func(s string) json.RawMessage { return json.RawMessage(s) }
	tests := []struct {
		name    string
		h       *event.Header
		want    Replay
		wantErr string
	}{
		{"no header", nil, Replay{}, ""},
		{"another source", &event.Header{Source: "claude", Meta: meta(`{"log_faults":"torn"}`)}, Replay{}, ""},
		{"sim without meta", &event.Header{Source: SourceSim}, Replay{}, ""},
		{"bad meta", &event.Header{Source: SourceSim, Meta: meta(`[]`)}, Replay{}, "header meta"},
		{"unknown log fault", &event.Header{Source: SourceShrink, Meta: meta(`{"log_faults":"gremlins"}`)}, Replay{}, "log_faults"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(tt.h)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
