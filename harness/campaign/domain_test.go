package campaign_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
)

// TestGeneratedTracesStayInTheirDomain checks the fault classifier
// against the simulator: every trace generated with a fault list is inside
// the domain of that list, so a finding's shrink can start from it; and a
// trace with a fault injected is outside the domain without that fault,
// so the classifier is not blind to it.
func TestGeneratedTracesStayInTheirDomain(t *testing.T) {
	lists := map[string]fault.List{"none": nil, "all": fault.Trace}
	for _, f := range fault.Trace {
		lists[string(f)] = fault.List{f}
	}
	for name, faults := range lists {
		t.Run(name, func(t *testing.T) {
			dom := campaign.Domain{Faults: faults}
			for seed := range uint64(1000) {
				sc := sim.Generate(seed, sim.Options{Faults: faults, Swarm: name == "all"})
				if why := dom.Outside(sc.Events, harness.Options{}); why != "" {
					t.Fatalf("seed %d (faults %s) is outside its own domain: %s\nreproduce: toolsim sim --seed %d --faults %s", seed, faults, why, seed, faults)
				}
			}
		})
	}
}

// TestInjectedFaultsAreSeen: for each fault the classifier can see, some
// seed generated with it alone leaves the domain of no faults.
func TestInjectedFaultsAreSeen(t *testing.T) {
	invisible := fault.List{fault.Order, fault.SameName, fault.ProgressBurst, fault.Reconnect, fault.Crash}
	for _, f := range fault.Trace {
		if invisible.Has(f) {
			continue
		}
		t.Run(string(f), func(t *testing.T) {
			for seed := range uint64(300) {
				sc := sim.Generate(seed, sim.Options{Faults: fault.List{f}})
				if sc.Injected[f] > 0 && (campaign.Domain{}).Outside(sc.Events, harness.Options{}) != "" {
					return
				}
			}
			t.Errorf("no seed with %s injected leaves the domain of no faults", f)
		})
	}
}

// TestExhaustiveTracesStayInTheirDomain: an exhaustive enumeration's
// traces hold no fault but cancels, the domain its findings shrink in.
func TestExhaustiveTracesStayInTheirDomain(t *testing.T) {
	dom := campaign.Domain{Faults: fault.List{fault.Cancel, fault.LateResult}}
	n := 0
	err := sim.Exhaustive(sim.ExhaustiveOptions{Tools: 3, Progress: 1, Cancel: true}, func(evs []event.Event) bool {
		n++
		if why := dom.Outside(evs, harness.Options{}); why != "" {
			t.Fatalf("ordering %d is outside the domain of cancels: %s", n-1, why)
		}
		return true
	})
	if err != nil || n == 0 {
		t.Fatalf("enumerated %d orderings: %v", n, err)
	}
}

// TestShrinkDomain: a generated trace's header gives the shrink domain
// its faults; any other trace may hold any fault.
func TestShrinkDomain(t *testing.T) {
	features := sim.FeatureList{sim.FeatureTools}
	gen := func(source, faults string) *event.Header {
		return &event.Header{Trace: event.Version, Source: source, Meta: []byte(`{"faults":"` + faults + `","fault_seed":1}`)}
	}
	tests := []struct {
		name    string
		h       *event.Header
		want    campaign.Domain
		from    string
		wantErr bool
	}{
		{"sim header", gen("sim", "cancel,order"), campaign.Domain{Faults: fault.List{fault.Order, fault.Cancel}, Features: features}, "faults order,cancel (from the trace header)", false},
		{"sim header, no faults", gen("sim", "none"), campaign.Domain{Features: features}, "faults none (from the trace header)", false},
		{"captured", &event.Header{Trace: event.Version, Source: "claude-code"}, campaign.Domain{Any: true, Features: features}, "any fault (the trace records no fault list)", false},
		{"no header", nil, campaign.Domain{Any: true, Features: features}, "any fault (the trace records no fault list)", false},
		{"unknown fault", gen("sim", "gremlins"), campaign.Domain{}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, from, err := campaign.ShrinkDomain(tt.h, features)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if tt.wantErr {
				return
			}
			if d := cmp.Diff(tt.want, got); d != "" || from != tt.from {
				t.Errorf("domain (-want +got):\n%s\nfrom %q, want %q", d, from, tt.from)
			}
		})
	}
}
