package campaign

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// campaignGOGC is the collector's target while a campaign runs. A campaign
// keeps a few megabytes live and allocates about a third of a megabyte a
// scenario, so at the default GOGC=100 it collects every few scenarios:
// on two cores, two workers then ran no faster than one
// (BenchmarkCampaignWorkers: 1,159 and 1,170 scenarios/s). At 800 they ran
// 1.6× one (1.8–1.9× once workers yield, see run.yield), and each is
// faster too, for a heap of tens of megabytes.
const campaignGOGC = 800

// collector counts the campaigns running, so that the first to start
// raises the target and the last to end puts the old one back.
var collector struct {
	mu      sync.Mutex
	running int
	old     int
	raised  bool
}

// gcPercent reads the collector's target without changing it (-1: off).
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 100 // the runtime's default; every Go since 1.21 has the metric
	}
	return int(int64(s[0].Value.Uint64())) // off reads as -1
}

// relaxGC raises the collector's target to campaignGOGC for the length of
// a campaign and returns what restores it. A GOGC in the environment, or a
// target already higher (or off), is left as it is.
func relaxGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	collector.mu.Lock()
	defer collector.mu.Unlock()
	if collector.running == 0 {
		old := gcPercent()
		collector.raised = old >= 0 && old < campaignGOGC
		if collector.raised {
			collector.old = debug.SetGCPercent(campaignGOGC)
		}
	}
	collector.running++
	return func() {
		collector.mu.Lock()
		defer collector.mu.Unlock()
		if collector.running--; collector.running == 0 && collector.raised {
			debug.SetGCPercent(collector.old)
		}
	}
}
