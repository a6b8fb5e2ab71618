package campaign_test

import (
	"maps"
	"runtime/debug"
	"runtime/metrics"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

// TestCampaignIndependentOfWorkers: the report (the lowest failing seed,
// coverage counts) is the same on one worker and on four.
func TestCampaignIndependentOfWorkers(t *testing.T) {
	run := func(workers int, engine func() harness.Engine) *campaign.Report {
		rep, err := campaign.Campaign{Seeds: 300, Workers: workers, NoShrink: true, Sim: sim.Options{Faults: fault.List{fault.Cancel, fault.Order}}}.Run(engine)
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	a, b := run(1, planted.Reference), run(4, planted.Reference)
	if d := cmp.Diff(a.Faults, b.Faults); d != "" || a.Scenarios != b.Scenarios {
		t.Errorf("coverage differs by worker count (-1 +4):\n%s", d)
	}
	ra, rb := run(1, planted.NameFIFOPairing), run(4, planted.NameFIFOPairing)
	if ra.Failure == nil || rb.Failure == nil || ra.Failure.Seed != rb.Failure.Seed {
		t.Fatalf("lowest failing seed differs by worker count: %v vs %v", ra.Failure, rb.Failure)
	}
	if d := cmp.Diff(ra.Faults, rb.Faults); d != "" || ra.Scenarios != rb.Scenarios || ra.Events != rb.Events {
		t.Errorf("a failed campaign's coverage differs by worker count (-1 +4):\n%s", d)
	}
}

// TestCampaignShards: shards split the range into disjoint slices that
// cover it, and an impossible shard is an error.
func TestCampaignShards(t *testing.T) {
	total := 0
	for k := 1; k <= 3; k++ {
		rep, err := campaign.Campaign{Seeds: 100, Shard: k, Shards: 3, Sim: sim.Options{}, Check: harness.Options{SelfCheck: true}}.Run(planted.Reference)
		if err != nil {
			t.Fatal(err)
		}
		total += rep.Scenarios
	}
	if total != 100 {
		t.Errorf("3 shards ran %d scenarios, want 100", total)
	}
	if _, err := (campaign.Campaign{Seeds: 10, Shard: 3, Shards: 2}).Run(planted.Reference); err == nil {
		t.Error("shard 3/2 accepted")
	}
}

// TestCampaignStop: a closed Stop ends the campaign at once, marked
// interrupted, and an interrupted campaign is not failed for coverage.
func TestCampaignStop(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	rep, err := campaign.Campaign{Seeds: 1000, Stop: stop, Sim: sim.Options{Faults: fault.All()}, Check: harness.Options{SelfCheck: true}}.Run(planted.Reference)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted || rep.Scenarios != 0 || !rep.OK() {
		t.Errorf("interrupted=%v scenarios=%d ok=%v, want true 0 true", rep.Interrupted, rep.Scenarios, rep.OK())
	}
}

// TestExhaustiveSmall: every ordering of a 3-tool batch passes on the
// planted.Reference engine and a planted bug is caught and shrunk.
func TestExhaustiveSmall(t *testing.T) {
	opts := sim.ExhaustiveOptions{Tools: 3, Progress: 1, Cancel: true}
	want, _ := sim.ExhaustiveCount(opts)
	rep, err := campaign.RunExhaustive(planted.Reference, opts, campaign.Campaign{Workers: 2, Check: harness.Options{SelfCheck: true}})
	if err != nil || rep.Failure != nil || rep.Scenarios != want {
		t.Fatalf("reference: %d of %d traces, failure %v, err %v", rep.Scenarios, want, rep.Failure, err)
	}
	rep, _ = campaign.RunExhaustive(planted.LastItemPairing, opts, campaign.Campaign{Workers: 2})
	if rep.Failure == nil || rep.Failure.Shrunk == nil || len(rep.Failure.Shrunk.Events) > 12 {
		t.Fatalf("last-item pairing not caught and shrunk: %+v", rep.Failure)
	}
}

// TestCampaignRelaxesGC: a campaign raises the collector's target while it
// runs and puts the old one back after; a target already higher is kept.
func TestCampaignRelaxesGC(t *testing.T) {
	t.Setenv("GOGC", "") // as if unset
	gcPercent := func() int {
		s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
		metrics.Read(s)
		return int(int64(s[0].Value.Uint64())) // off reads as -1
	}
	for _, tc := range []struct {
		name             string
		before, whileRun int
	}{
		{"default", 100, 800},
		{"lower", 50, 800},
		{"higher", 2000, 2000},
		{"off", -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer debug.SetGCPercent(debug.SetGCPercent(tc.before))
			seen := map[int]bool{}
			camp := campaign.Campaign{Seeds: 3, Progress: func(int, int, int) { seen[gcPercent()] = true }}
			if _, err := camp.Run(planted.Reference); err != nil {
				t.Fatal(err)
			}
			if want := map[int]bool{tc.whileRun: true}; !maps.Equal(seen, want) {
				t.Errorf("GOGC while running = %v, want %v", seen, want)
			}
			if got := gcPercent(); got != tc.before {
				t.Errorf("GOGC after = %d, want %d back", got, tc.before)
			}
		})
	}
}
