package adapter_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"

	"github.com/toolsim/toolsim/examples/fantasy/adapter"
)

// BenchmarkCampaign measures the campaign's rate in process: fantasy's
// agent, its goroutines and every oracle, one worker, 200 seeds per
// iteration, findings left unshrunk (go test -run '^$' -bench Campaign ./adapter).
func BenchmarkCampaign(b *testing.B) {
	c := campaign.Campaign{Seeds: 200, NoShrink: true, Check: adapter.Options, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	scenarios := 0
	for b.Loop() {
		rep, err := c.Run(adapter.New)
		if err != nil {
			b.Fatal(err)
		}
		scenarios += rep.Scenarios
	}
	b.ReportMetric(float64(scenarios)/b.Elapsed().Seconds(), "scenarios/s")
}
