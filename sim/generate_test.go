package sim_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// TestGenerateDeterministic: the same seed and options give the same
// bytes; another seed gives other bytes.
func TestGenerateDeterministic(t *testing.T) {
	opts := sim.Options{Faults: fault.All(), Swarm: true}
	for seed := range uint64(50) {
		a, b := sim.Generate(seed, opts), sim.Generate(seed, opts)
		if !bytes.Equal(encode(t, a.Events), encode(t, b.Events)) {
			t.Fatalf("seed %d: two generations differ", seed)
		}
		if d := cmp.Diff(a.Injected, b.Injected); d != "" {
			t.Fatalf("seed %d: injection counts differ (-first +second):\n%s", seed, d)
		}
		if d := cmp.Diff(a.Shapes, b.Shapes); d != "" {
			t.Fatalf("seed %d: shape counts differ (-first +second):\n%s", seed, d)
		}
	}
	if bytes.Equal(encode(t, sim.Generate(1, opts).Events), encode(t, sim.Generate(2, opts).Events)) {
		t.Error("seeds 1 and 2 gave the same trace")
	}
}

// TestEveryFaultIsInjected: without swarm, every fault lands within 300
// seeds; with no faults, none does.
func TestEveryFaultIsInjected(t *testing.T) {
	got := map[fault.Fault]int{}
	for seed := range uint64(300) {
		for f, n := range sim.Generate(seed, sim.Options{Faults: fault.All()}).Injected {
			got[f] += n
		}
	}
	for _, f := range fault.All() {
		if got[f] == 0 {
			t.Errorf("fault %s never injected in 300 seeds", f)
		}
	}
	for seed := range uint64(100) {
		if inj := sim.Generate(seed, sim.Options{}).Injected; len(inj) > 0 {
			t.Fatalf("seed %d: no faults enabled, injected %v", seed, inj)
		}
	}
}

// TestTracesAreValid: every generated trace has strictly increasing seq,
// non-decreasing t, and events that pass validation (it encodes).
func TestTracesAreValid(t *testing.T) {
	for seed := range uint64(300) {
		evs := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}).Events
		encode(t, evs)
		if len(evs) == 0 || evs[0].Seq != 1 {
			t.Fatalf("seed %d: trace does not start at seq 1", seed)
		}
	}
}

// TestOnlyEnabledFaults: a scenario injects nothing outside its faults.
func TestOnlyEnabledFaults(t *testing.T) {
	for seed := range uint64(200) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.List{fault.Cancel, fault.UnknownID}})
		for f := range sc.Injected {
			if f != fault.Cancel && f != fault.UnknownID {
				t.Fatalf("seed %d injected %s", seed, f)
			}
		}
	}
}

// TestBytesSourceReplaysBytes: the same bytes give the same scenario, and
// running out of bytes never stalls generation.
func TestBytesSourceReplaysBytes(t *testing.T) {
	data := []byte("0123456789abcdefghijklmnopqrstuvwxyz")
	a := sim.GenerateFrom(sim.NewBytesSource(data), 0, sim.Options{Faults: fault.All()})
	b := sim.GenerateFrom(sim.NewBytesSource(data), 0, sim.Options{Faults: fault.All()})
	if !bytes.Equal(encode(t, a.Events), encode(t, b.Events)) {
		t.Error("the same bytes gave different scenarios")
	}
	sim.GenerateFrom(sim.NewBytesSource(nil), 0, sim.Options{Faults: fault.All()})
}
