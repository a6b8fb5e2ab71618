package sim_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// metaNames are the default meta tools of SPEC §2.
var metaNames = []string{"todowrite", "TodoWrite", "todo_write", "update_plan"}

// offFeatureEvent returns the index of the first event of sc that needs a
// feature that is off, and that feature; -1 when there is none.
func offFeatureEvent(sc *sim.Scenario) (int, sim.Feature) {
	feats := sc.Options.Features
	for i := range sc.Events {
		ev := &sc.Events[i]
		if f := sim.FeatureOf(ev); !feats.Has(f) {
			return i, f
		}
		if ev.Kind == event.KindToolStart && slices.Contains(metaNames, ev.Name) && !feats.Has(sim.FeatureMeta) {
			return i, sim.FeatureMeta
		}
		if ev.Kind == event.KindToolProgress && !feats.Has(sim.FeatureProgress) {
			return i, sim.FeatureProgress
		}
	}
	return -1, ""
}

// TestFeaturesOff: for each feature subset, 300 seeds (swarm and not, every
// fault) hold no event of a feature that is off, and inject no fault that
// needs one.
func TestFeaturesOff(t *testing.T) {
	for _, list := range []string{
		"tools", "tools,text,cancel", "text", "thinking,user", "errors,cancel",
		"permissions", "subagents", "delegation", "delegation,progress", "meta",
		"progress", "text,permissions,progress", "all",
	} {
		feats, err := sim.ParseFeatures(list)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(list, func(t *testing.T) {
			for seed := range uint64(300) {
				for _, swarm := range []bool{true, false} {
					sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Features: feats, Swarm: swarm})
					if i, f := offFeatureEvent(sc); i >= 0 {
						t.Fatalf("seed %d swarm %v: event %d (%s) needs feature %s, which is off", seed, swarm, sc.Events[i].Seq, sc.Events[i].Kind, f)
					}
					for f := range sc.Injected {
						if !feats.Usable(f) {
							t.Fatalf("seed %d swarm %v: injected %s, which needs a feature that is off", seed, swarm, f)
						}
					}
				}
			}
		})
	}
}

// TestFeaturesAllReached: with every feature on, 300 swarm seeds reach
// every feature (so the check above can fail).
func TestFeaturesAllReached(t *testing.T) {
	seen := map[sim.Feature]bool{}
	for seed := range uint64(300) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true})
		for i := range sc.Events {
			ev := &sc.Events[i]
			seen[sim.FeatureOf(ev)] = true
			if ev.Kind == event.KindToolProgress {
				seen[sim.FeatureProgress] = true
			}
			if ev.Kind == event.KindToolStart && slices.Contains(metaNames, ev.Name) {
				seen[sim.FeatureMeta] = true
			}
		}
	}
	for _, f := range sim.AllFeatures {
		if !seen[f] {
			t.Errorf("feature %s never reached in 300 seeds", f)
		}
	}
}

func TestParseFeatures(t *testing.T) {
	tests := []struct {
		in   string
		want sim.FeatureList
		err  string
	}{
		{"", sim.AllFeatures, ""},
		{"all", sim.AllFeatures, ""},
		{"none", sim.FeatureList{sim.FeatureTools}, ""},
		{"cancel, text,text", sim.FeatureList{sim.FeatureTools, sim.FeatureText, sim.FeatureCancel}, ""},
		{"tools,progress", sim.FeatureList{sim.FeatureTools, sim.FeatureProgress}, ""},
		{"text,nope", nil, `unknown feature "nope" (known: all, none, tools, text,`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := sim.ParseFeatures(tt.in)
			if tt.err != "" {
				var uf *sim.UnknownFeatureError
				if err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, &uf) {
					t.Fatalf("err = %v, want an UnknownFeatureError containing %q", err, tt.err)
				}
				return
			}
			if d := cmp.Diff(tt.want, got); err != nil || d != "" {
				t.Errorf("ParseFeatures(%q) (-want +got):\n%s (err %v)", tt.in, d, err)
			}
			back, err := sim.ParseFeatures(got.String())
			if d := cmp.Diff(got, back); err != nil || d != "" {
				t.Errorf("round trip of %q (-want +got):\n%s (err %v)", got, d, err)
			}
		})
	}
}

func TestUsableFaults(t *testing.T) {
	feats, _ := sim.ParseFeatures("tools,text,cancel")
	got := feats.UsableFaults(fault.All())
	for _, f := range (fault.List{fault.ProgressAfterResult, fault.ProgressBurst, fault.SubagentBlock, fault.CancelBeforeResult}) {
		if got.Has(f) {
			t.Errorf("%s usable without its feature", f)
		}
	}
	for _, f := range (fault.List{fault.Cancel, fault.LateResult, fault.LateText, fault.Order}) {
		if !got.Has(f) {
			t.Errorf("%s not usable with tools,text,cancel", f)
		}
	}
	perm, _ := sim.ParseFeatures("permissions")
	if !perm.Usable(fault.LateResult) || perm.Usable(fault.Cancel) {
		t.Error("with permissions only: late-result should be usable, cancel not")
	}
	if got := (sim.FeatureList)(nil).UsableFaults(fault.All()); !slices.Equal(got, fault.All()) {
		t.Errorf("every feature: usable %v, want every fault", got)
	}
}
