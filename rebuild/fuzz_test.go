package rebuild_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/internal/race"
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
		if diff := cmp.Diff(seenOf(res), seenOf(inPlace), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("read in place differs (-buffered +in place):\n%s", diff)
		}
		checkReplayed(t, log)
	})
}

// seen is what a rebuild gives, compared whole.
type seen struct {
	TL       *timeline.Timeline
	Problems []rebuild.Problem
	Order    string
	Records  int
	Events   []event.Event
}

func seenOf(r *rebuild.Result) seen {
	return seen{r.Timeline(), r.Problems, r.Order, r.Records, r.Events}
}

// checkReplayed checks rebuild.Replayed against two plain rebuilds: once
// is the log's rebuild in every respect, and when the log's last line is
// whole, twice is the rebuild of the log followed by its records.
func checkReplayed(t *testing.T, log []byte) {
	t.Helper()
	once, twice, err := rebuild.Replayed(log, rebuild.Options{KeepEvents: true})
	if err != nil {
		t.Fatalf("Replayed: %v", err)
	}
	for _, tt := range []struct {
		name string
		log  []byte
		got  *rebuild.Result
	}{
		{"once", log, once},
		{"twice", append(slices.Clip(log), log[bytes.IndexByte(log, '\n')+1:]...), twice},
	} {
		if tt.name == "twice" && (len(log) == 0 || log[len(log)-1] != '\n') {
			continue // a torn last line is not replayed: no plain log to compare with
		}
		want, err := rebuild.Rebuild(bytes.NewReader(tt.log), rebuild.Options{KeepEvents: true})
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(seenOf(want), seenOf(tt.got), cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Replayed's %s differs from a plain rebuild (-plain +Replayed):\n%s", tt.name, diff)
		}
	}
}

// TestReplayed: rebuild.Replayed gives two plain rebuilds' results on logs
// written under every log fault, one at a time and all at once.
func TestReplayed(t *testing.T) {
	if race.Enabled {
		t.Skip("single-goroutine and heavy: make test runs it in its second step, without -race")
	}
	evs := sim.Synthetic(7, sim.SyntheticOptions{Events: 200, CancelEvery: 3})
	sets := []fault.List{nil, fault.Log}
	for _, lf := range fault.Log {
		sets = append(sets, fault.List{lf})
	}
	for _, fs := range sets {
		for seed := range uint64(5) {
			t.Run(fmt.Sprintf("%s/seed=%d", fs.String(), seed), func(t *testing.T) {
				checkReplayed(t, store.Persist(evs, store.Options{Faults: fs, Seed: seed}).Log)
			})
		}
	}
}
