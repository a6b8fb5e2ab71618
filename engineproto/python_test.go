package engineproto_test

import (
	"bytes"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
	"github.com/toolsim/toolsim/timeline"
)

// statuses lists every tool's status, depth first.
func statuses(tl *timeline.Timeline) []timeline.Status {
	var out []timeline.Status
	for _, it := range tl.Items {
		it.EachTool(func(t *timeline.Tool) bool {
			out = append(out, t.Status)
			return true
		})
	}
	return out
}

// TestPythonReconstruct: the Python example rebuilds persisted logs as the
// reference does (tool statuses, in order), speaking deltas on the way;
// with --bug reload-cancelled-as-failed an interrupted tool comes back
// failed.
func TestPythonReconstruct(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 not installed")
	}
	adapter := "../examples/python/adapter.py"
	good, err := engineproto.Start([]string{"python3", adapter}, engineproto.Options{Timeout: time.Minute, MetaTools: engine.DefaultMetaTools})
	if err != nil {
		t.Fatal(err)
	}
	defer good.Close()
	buggy, err := engineproto.Start([]string{"python3", adapter, "--bug", "reload-cancelled-as-failed"}, engineproto.Options{Timeout: time.Minute, MetaTools: engine.DefaultMetaTools})
	if err != nil {
		t.Fatal(err)
	}
	defer buggy.Close()
	if !good.Info.Has(engineproto.CapReconstruct) || !good.Info.Has(engineproto.CapDelta) {
		t.Fatalf("capabilities %v", good.Info.Capabilities)
	}
	caught := 0
	for seed := range uint64(15) {
		evs := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}).Events
		if _, err := good.Batch(evs, true); err != nil { // deltas over a whole scenario
			t.Fatal(err)
		}
		log := store.Persist(evs, store.Options{Seed: seed}).Log
		res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{Engine: engine.Options{}})
		if err != nil {
			t.Fatal(err)
		}
		want := statuses(res.Engine.Timeline())
		tl, err := good.Reconstruct(log)
		if err != nil {
			t.Fatal(err)
		}
		if got := statuses(tl); !slices.Equal(got, want) {
			t.Fatalf("seed %d: statuses %v, want %v", seed, got, want)
		}
		tl, err = buggy.Reconstruct(log)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(statuses(tl), want) {
			caught++
		}
	}
	if caught == 0 {
		t.Error("reload-cancelled-as-failed never changed a rebuilt timeline in 15 seeds")
	}
}
