package campaign_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

// TestMutantsAreCaughtAndShrunk is toolsim's mutation score: every mutant
// is caught by the default campaign within 1,000 seeds and shrunk to a
// regression of at most 12 events that fails the same oracle.
func TestMutantsAreCaughtAndShrunk(t *testing.T) {
	for _, tt := range planted.Mutants {
		t.Run(tt.Name, func(t *testing.T) {
			f := caughtAndShrunk(t, tt.Engine, tt.Opts)
			t.Logf("seed %d: %s; shrunk %d → %d events", f.Seed, f.Violation.Oracle, len(f.Case.Events), len(f.Shrunk.Events))
		})
	}
}

// caughtAndShrunk runs the default campaign (1,000 seeds, every fault,
// swarm) against an engine, stopping at the first failing seed, and
// asserts that it fails and that the failure shrinks to at most 12 events
// failing with the same signature. (One campaign finding several bugs is
// TestOneCampaignFindsEveryBug.)
func caughtAndShrunk(t *testing.T, eng func() harness.Engine, opts harness.Options) *campaign.Failure {
	t.Helper()
	camp := campaign.Campaign{Seeds: 1000, Workers: 2, StopAtFirst: true, Check: opts, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	rep, err := camp.Run(eng)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Failure
	if f == nil {
		t.Fatalf("not caught in 1,000 seeds (%d scenarios checked)", rep.Scenarios)
	}
	if f.Shrunk == nil || len(f.Shrunk.Events) > 12 {
		t.Fatalf("seed %d (%s) shrank to %d events, want ≤ 12 (%s)", f.Seed, f.Violation.Oracle, len(f.Shrunk.Events), f.Note)
	}
	if f.ShrunkBy.Signature != f.Violation.Signature {
		t.Errorf("shrunk trace fails with %q, want the original signature %q", f.ShrunkBy.Signature, f.Violation.Signature)
	}
	t.Logf("signature: %s", f.Violation.Signature)
	return f
}
