package campaign_test

import (
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/planted"
)

// Planted bugs: engines that are wrong in the ways real agents were (SPEC
// §6), built by bending the planted.Reference engine. The campaign must catch each
// within 1,000 seeds and shrink it to a regression of at most 12 events.

func TestPlantedBugsAreCaughtAndShrunk(t *testing.T) {
	tests := []struct {
		name   string
		engine func() harness.Engine
	}{
		{"pairing with the last item", planted.LastItemPairing},
		{"pairing by name first-in-first-out", planted.NameFIFOPairing},
		{"cancel leaves a spinner", planted.CancelLeavesSpinner},
		{"group upgrade loses its first tool", planted.UpgradeLosesFirst},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := caughtAndShrunk(t, tt.engine, harness.Options{})
			t.Logf("seed %d: %s; shrunk %d → %d events in %d tests", f.Seed, f.Violation.Oracle, len(f.Case.Events), len(f.Shrunk.Events), f.Tests)
			for _, ev := range f.Shrunk.Events {
				t.Logf("  %s", event.AppendEvent(nil, &ev))
			}
			t.Log(f.ShrunkBy)
		})
	}
}
