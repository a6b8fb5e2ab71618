package engineproto_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/timeline"
)

// TestDeltaRebuildsWholeTimelines: the reference engine served with deltas
// and served with whole timelines give the same timelines after every
// event of many scenarios; items shared with the previous reply keep their
// version, and a changed item gets a new one.
func TestDeltaRebuildsWholeTimelines(t *testing.T) {
	delta, err := start(t, "reference", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer delta.Close()
	full, err := start(t, "reference-full", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer full.Close()
	if !delta.Info.Has(engineproto.CapDelta) || full.Info.Has(engineproto.CapDelta) {
		t.Fatalf("capabilities: delta %v, full %v", delta.Info.Capabilities, full.Info.Capabilities)
	}
	for seed, evs := range scenarios(60) {
		for _, c := range []*engineproto.Client{delta, full} {
			if err := c.Reset(); err != nil {
				t.Fatal(err)
			}
		}
		got, err := delta.Batch(evs, seed%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		want, err := full.Batch(evs, seed%2 == 0)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if diff := cmp.Diff(want[i], got[i], cmpopts.IgnoreFields(timeline.Item{}, "Version")); diff != "" {
				t.Fatalf("seed %d, timeline %d (-full +delta):\n%s", seed, i, diff)
			}
			if i > 0 {
				checkVersions(t, got[i-1], got[i])
			}
		}
	}
}

// checkVersions: every item has a nonzero version; an item that is the
// previous timeline's pointer is unchanged, and one that is not has a
// version the previous timeline did not use.
func checkVersions(t *testing.T, prev, cur *timeline.Timeline) {
	t.Helper()
	used := map[uint64]bool{}
	for _, it := range prev.Items {
		used[it.Version] = true
	}
	for i, it := range cur.Items {
		switch {
		case it.Version == 0:
			t.Fatalf("item %d has version 0", i)
		case i < len(prev.Items) && prev.Items[i] == it:
			continue
		case used[it.Version]:
			t.Fatalf("item %d is new but reuses version %d", i, it.Version)
		case i < len(prev.Items) && prev.Items[i].Same(it):
			t.Fatalf("item %d is unchanged but was not shared", i)
		}
	}
}
