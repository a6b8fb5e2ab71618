package rebuild_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
	"github.com/toolsim/toolsim/timeline"
)

// FuzzRebuild feeds arbitrary bytes to the reconstruction engine, seeded
// with real logs under every fault: it must never panic or hang, and what
// it rebuilds must encode, and be what the same log read in place (from a
// *bytes.Buffer) rebuilds.
func FuzzRebuild(f *testing.F) {
	evs := sim.Synthetic(5, sim.SyntheticOptions{Events: 60, CancelEvery: 2})
	for _, lf := range fault.Log {
		f.Add(store.Persist(evs, store.Options{Faults: fault.List{lf}, Seed: 1}).Log)
	}
	f.Add(store.Persist(evs, store.Options{Faults: fault.Log, Seed: 2}).Log)
	f.Add([]byte("garbage\n{\"v\":1}\n"))
	f.Fuzz(func(t *testing.T, log []byte) {
		res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{KeepEvents: true})
		if err != nil {
			t.Fatalf("an in-memory reader cannot fail: %v", err)
		}
		if _, err := json.Marshal(res.Timeline()); err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Problems {
			if p.Code == "" {
				t.Fatalf("a problem without a code: %+v", p)
			}
		}
		inPlace, err := rebuild.Rebuild(bytes.NewBuffer(log), rebuild.Options{KeepEvents: true})
		if err != nil {
			t.Fatalf("read in place: %v", err)
		}
		type seen struct {
			TL       *timeline.Timeline
			Problems []rebuild.Problem
			Order    string
			Records  int
			Events   []event.Event
		}
		want := seen{res.Timeline(), res.Problems, res.Order, res.Records, res.Events}
		got := seen{inPlace.Timeline(), inPlace.Problems, inPlace.Order, inPlace.Records, inPlace.Events}
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("read in place differs (-buffered +in place):\n%s", diff)
		}
	})
}
