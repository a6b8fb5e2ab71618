package executor

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
)

// benchSeeds is how many seeds one iteration of [Suite.Bench] runs.
const benchSeeds = 200

// Bench is the Go benchmark of an adapter: the campaign's rate in
// process (the library, its goroutines and every oracle), 200 seeds an
// iteration with the findings left unshrunk, on one worker and on one per
// CPU (sub-benchmarks workers=N). It reports scenarios/s, wall clock, and
// cpu-µs/scenario, the CPU time the process used per scenario (on unix
// only), which other work on the machine inflates less than the wall
// clock. Only New and Options are used:
//
//	func BenchmarkCampaign(b *testing.B) { suite.Bench(b) }
func (s Suite) Bench(b *testing.B) {
	for _, workers := range []int{1, runtime.GOMAXPROCS(0)} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			c := campaign.Campaign{Seeds: benchSeeds, Workers: workers, NoShrink: true, Check: s.Options,
				Sim: sim.Options{Faults: fault.All(), Swarm: true}}
			scenarios := 0
			cpu := cpuTime()
			for b.Loop() {
				rep, err := c.Run(s.New)
				if err != nil {
					b.Fatal(err)
				}
				scenarios += rep.Scenarios
			}
			b.ReportMetric(float64(scenarios)/b.Elapsed().Seconds(), "scenarios/s")
			if cpu >= 0 && scenarios > 0 {
				b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/float64(scenarios), "cpu-µs/scenario")
			}
		})
	}
}
