package harness_test

import (
	"testing"

	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// BenchmarkCampaign: scenarios/s with every oracle, reconstruction
// included, on two workers (the machine's cores).
func BenchmarkCampaign(b *testing.B) {
	const seeds = 500
	total := 0
	for b.Loop() {
		camp := harness.Campaign{Seeds: seeds, Workers: 2, Sim: sim.Options{Faults: sim.AllFaults(), Swarm: true}}
		rep, err := camp.Run(reference)
		if err != nil || rep.Failure != nil {
			b.Fatalf("campaign failed: %v %v", err, rep.Failure)
		}
		total += rep.Scenarios
	}
	b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "scenarios/s")
}

// BenchmarkExhaustive4: every ordering of a 4-tool batch with one progress
// each and every cancel point, every oracle.
func BenchmarkExhaustive4(b *testing.B) {
	for b.Loop() {
		rep, err := harness.RunExhaustive(reference, sim.ExhaustiveOptions{Tools: 4, Progress: 1, Cancel: true}, harness.Campaign{Workers: 2})
		if err != nil || rep.Failure != nil {
			b.Fatalf("exhaustive failed: %v %v", err, rep.Failure)
		}
		b.ReportMetric(float64(rep.Scenarios), "traces")
	}
}
