package sim_test

import (
	"bytes"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/sim"
)

func encode(t *testing.T, evs []event.Event) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := event.WriteAll(&buf, nil, evs); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSyntheticDeterministic(t *testing.T) {
	opts := sim.SyntheticOptions{Events: 500, CancelEvery: 3}
	a, b := encode(t, sim.Synthetic(7, opts)), encode(t, sim.Synthetic(7, opts))
	if !bytes.Equal(a, b) {
		t.Fatal("same seed gave different traces")
	}
	if c := encode(t, sim.Synthetic(8, opts)); bytes.Equal(a, c) {
		t.Fatal("different seeds gave the same trace")
	}
}

// TestSyntheticIsClean checks the generator's promise: the trace is valid,
// and a correct engine raises no diagnostic on it and leaves nothing live.
func TestSyntheticIsClean(t *testing.T) {
	for seed := range uint64(20) {
		evs := sim.Synthetic(seed, sim.SyntheticOptions{Events: 300, CancelEvery: 4})
		if _, _, err := event.ReadAll(bytes.NewReader(encode(t, evs)), event.ReaderOptions{}); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		e := engine.New(engine.Options{})
		for i := range evs {
			e.Apply(&evs[i])
		}
		if d := e.Timeline().Diagnostics; len(d) > 0 {
			t.Fatalf("seed %d: diagnostics %v on a clean trace", seed, d)
		}
		if live := e.Live(); len(live) > 0 {
			t.Fatalf("seed %d: tools %v live at the end", seed, live)
		}
	}
}
