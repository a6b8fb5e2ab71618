package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/harness/campaign"
)

// TestHelpSaysWhereAFlagApplies: a flag that only matters with another
// says so in the help of the command that lists it.
func TestHelpSaysWhereAFlagApplies(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"replay", "--help"}, []string{
			"toolsim replay --check-reconstruct [--faults LIST] [--seed N] [--fine] FILE",
			"with --check-reconstruct: comma-separated persistence faults",
			"with --check-reconstruct: seed for the faults' random choices",
			"with --check-reconstruct: write one record per text delta",
			"no effect here: replay runs no oracle",
		}},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			var out, errOut bytes.Buffer
			c := &cli{stdout: &out, stderr: &errOut}
			if code := c.run(tt.args); code != exitOK {
				t.Fatalf("exit %d", code)
			}
			help := out.String() + errOut.String()
			for _, w := range tt.want {
				if !strings.Contains(help, w) {
					t.Errorf("the help lacks %q:\n%s", w, help)
				}
			}
		})
	}
}

// TestRateCountsTheSeedsOnly: the throughput line's rate is the seeds'
// time, and the time shrinking took after them is named apart.
func TestRateCountsTheSeedsOnly(t *testing.T) {
	var out bytes.Buffer
	c := &cli{stdout: &out, stderr: &out}
	rep := &campaign.Report{Scenarios: 60, Events: 600}
	c.printReport(rep, campaign.Campaign{}, timing{seeds: 30 * time.Second, total: 105 * time.Second})
	want := "60 scenarios, 600 events in 30.00s (then 75.00s shrinking and confirming findings): 2.0 scenarios/s, 20 events/s\n"
	if !strings.Contains(out.String(), want) {
		t.Errorf("the report lacks %q:\n%s", want, out.String())
	}
	calls := 0
	camp := campaign.Campaign{Progress: func(int, int, int) { calls++ }}
	clock := seedClock(&camp, time.Now())
	camp.Progress(1, 2, 0)
	if tm := clock(); calls != 1 || tm.seeds > tm.total {
		t.Errorf("progress reached the display %d times (want 1); seeds %v > total %v", calls, tm.seeds, tm.total)
	}
}
