package harness_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

// FuzzPlan decodes fuzzer bytes into a scenario plan (every choice of the
// simulator drawn from the bytes) and checks the planted.Reference engine with
// every oracle, reconstruction included. Run it with
// `go test ./harness -run '^$' -fuzz FuzzPlan`, or under OSS-Fuzz /
// ClusterFuzzLite as a native Go fuzz target.
func FuzzPlan(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("cancel me while two tools run, then replay the log"))
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, data []byte) {
		sc := sim.GenerateFrom(sim.NewBytesSource(data), 0, sim.Options{Faults: fault.All(), Swarm: true})
		if v := harness.CheckCase(planted.Reference, harness.CaseOf(sc), harness.Options{First: true, SelfCheck: true}); len(v) > 0 {
			t.Fatalf("%v", v[0])
		}
	})
}
