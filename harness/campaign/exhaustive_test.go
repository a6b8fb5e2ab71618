package campaign_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

// TestExhaustivePlanted pins what exhaustive mode reports for planted
// bugs: the first failing trace, its oracle and seq, the shrunk case, and
// the counts up to the failure. The figures were taken before exhaustive
// mode was made faster; a faster run must report exactly the same. The
// shrunk sizes are those of a shrink that keeps the signature inside the
// enumeration's domain (cancels, late results): the two-event shrinks it
// made before ended the stream with tools live, a fault the enumeration
// never injects.
func TestExhaustivePlanted(t *testing.T) {
	opts := sim.ExhaustiveOptions{Tools: 3, Progress: 1, Cancel: true}
	tests := []struct {
		name   string
		engine func() harness.Engine
		want   string
	}{
		{"spinner", planted.CancelLeavesSpinner, "trace 0, model at seq 4; shrunk 5 → 2 events by model at seq 2; 1 traces, 5 events; states turn end: after cancel, no separator=1"},
		{"last-item-pairing", planted.LastItemPairing, "trace 18, pairing at seq 9; shrunk 11 → 4 events by pairing at seq 3; 19 traces, 183 events; states cancel between progress and result=9 cancel while 2+ tools live=3 cancel with nothing live=3 progress: streamed output=32 result after cancel=10 result: output replaces streamed=16 status: running → failed=7 turn end: after cancel, no separator=19"},
		{"upgrade", planted.UpgradeLosesFirst, "trace 32, once at seq 7; shrunk 9 → 3 events by once at seq 2; 33 traces, 355 events; states cancel between progress and result=21 cancel while 2+ tools live=7 cancel with nothing live=6 group: run of starts, no batch ids=1 progress: streamed output=71 result after cancel=18 result: output replaces streamed=35 status: running → failed=15 turn end: after cancel, no separator=33"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := campaign.RunExhaustive(tt.engine, opts, campaign.Campaign{Workers: 2, Check: harness.Options{SelfCheck: true}})
			if err != nil || rep.Failure == nil {
				t.Fatalf("the planted bug was not found: %v", err)
			}
			if got := summary(rep); got != tt.want {
				t.Errorf("report:\n got %s\nwant %s", got, tt.want)
			}
		})
	}
}

// summary is a one-line account of an exhaustive report with a failure.
func summary(rep *campaign.Report) string {
	f := rep.Failure
	var states []string
	for _, k := range slices.Sorted(maps.Keys(rep.States)) {
		states = append(states, fmt.Sprintf("%s=%d", k, rep.States[k]))
	}
	return fmt.Sprintf("trace %d, %s at seq %d; shrunk %d → %d events by %s at seq %d; %d traces, %d events; states %s",
		f.Seed, f.Violation.Oracle, f.Violation.Seq, len(f.Case.Events), len(f.Shrunk.Events), f.ShrunkBy.Oracle, f.ShrunkBy.Seq,
		rep.Scenarios, rep.Events, strings.Join(states, " "))
}
