package rebuild

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
)

// TestForkIsIndependent: a builder forked while records wait for a lost
// seq finishes as a rebuild of the lines read so far, and the builder it
// was forked from, given the missing record, finishes as a rebuild of the
// whole log, whichever of the two finishes first.
func TestForkIsIndependent(t *testing.T) {
	evs := sim.Synthetic(2, sim.SyntheticOptions{Events: 40})
	log := store.Persist(evs, store.Options{}).Log
	lines := bytes.SplitAfter(log, []byte("\n"))
	const lost = 2 // the second record: every later one waits for it
	prefix := bytes.Join(append(lines[:lost:lost], lines[lost+1:]...), nil)
	type seen struct {
		Problems []Problem
		Records  int
		Events   any
	}
	of := func(r *Result) seen { return seen{r.Problems, r.Records, r.Events} }
	rebuilt := func(log []byte) seen {
		r, err := Rebuild(bytes.NewReader(log), Options{KeepEvents: true})
		if err != nil {
			t.Fatal(err)
		}
		return of(r)
	}
	wantFork, wantWhole := rebuilt(prefix), rebuilt(log)
	for _, forkFirst := range []bool{true, false} {
		b := newBuilder(Options{KeepEvents: true})
		if _, err := b.read(bytes.NewBuffer(prefix), 1); err != nil {
			t.Fatal(err)
		}
		if len(b.order.heap) == 0 {
			t.Fatal("no record waits for the lost one: the test sees nothing")
		}
		fork := b.fork()
		var got *Result
		if forkFirst {
			got = fork.finish()
		}
		if _, err := b.read(bytes.NewBuffer(lines[lost]), lost+1); err != nil {
			t.Fatal(err)
		}
		whole := b.finish()
		if !forkFirst {
			got = fork.finish()
		}
		if diff := cmp.Diff(wantFork, of(got), cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("fork finished first %v: the fork (-rebuild of the lines read +fork):\n%s", forkFirst, diff)
		}
		// The missing record's problems aside, the builder gave the whole
		// log's events.
		if diff := cmp.Diff(wantWhole.Events, whole.Events, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("fork finished first %v: the builder (-rebuild of the whole log +builder):\n%s", forkFirst, diff)
		}
	}
}
