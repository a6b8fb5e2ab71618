package adapter_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"

	"github.com/toolsim/toolsim/examples/adk/adapter"
)

// BenchmarkCampaign measures the campaign's rate in process: ADK's
// runner, its goroutines and every oracle, 200 seeds per iteration,
// findings left unshrunk, on one worker and on one per CPU
// (go test -run '^$' -bench Campaign ./adapter). scenarios/s is wall
// clock; cpu-µs/scenario is the process's CPU time per scenario, which a
// machine shared with other work does not inflate.
func BenchmarkCampaign(b *testing.B) {
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			c := campaign.Campaign{Seeds: 200, Workers: workers, NoShrink: true, Check: adapter.Options,
				Sim: sim.Options{Faults: fault.All(), Swarm: true}}
			scenarios := 0
			cpu := cpuTime()
			for b.Loop() {
				rep, err := c.Run(adapter.New)
				if err != nil {
					b.Fatal(err)
				}
				scenarios += rep.Scenarios
			}
			b.ReportMetric(float64(scenarios)/b.Elapsed().Seconds(), "scenarios/s")
			if cpu >= 0 {
				b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(scenarios), "cpu-µs/scenario")
			}
		})
	}
}
