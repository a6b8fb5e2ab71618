package tracemeta

import (
	"encoding/json"
	"slices"
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

func TestFaults(t *testing.T) {
	meta := func(s string) json.RawMessage { return json.RawMessage(s) }
	tests := []struct {
		name    string
		h       *event.Header
		want    fault.List
		ok      bool
		wantErr string
	}{
		{"no header", nil, nil, false, ""},
		{"a seed's faults", Header(SourceSim, 3, Meta{Faults: "order,unknown-id"}), fault.List{fault.Order, fault.UnknownID}, true, ""},
		{"none is a list", Header(SourceSim, 3, Meta{Faults: "none"}), nil, true, ""},
		{"all", Header(SourceSim, 3, Meta{Faults: "all"}), fault.All(), true, ""},
		{"a shrunk trace that records them", Header(SourceShrink, 0, Meta{Faults: "cancel"}), fault.List{fault.Cancel}, true, ""},
		{"a sim header without faults", Header(SourceSim, 3, Meta{}), nil, false, ""},
		{"another source", &event.Header{Source: "claude", Meta: meta(`{"faults":"order"}`)}, nil, false, ""},
		{"bad meta", &event.Header{Source: SourceSim, Meta: meta(`[]`)}, nil, false, "header meta"},
		{"unknown fault", &event.Header{Source: SourceSim, Meta: meta(`{"faults":"gremlins"}`)}, nil, false, "header meta faults"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok, err := Faults(tt.h)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one naming %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.ok || !slices.Equal(got, tt.want) {
				t.Errorf("Faults = %v, %v; want %v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}
