package engineproto_test

import (
	"strings"
	"testing"

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
	delta, err := start(t, "reference", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	defer delta.Close()
	full, err := start(t, "reference-full", newFakeClock())
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

// TestBadDeltas: a delta that cannot be applied is an engine failure that
// says why.
func TestBadDeltas(t *testing.T) {
	tests := []struct{ mode, want string }{
		{"delta-undeclared", `a delta reply, but the engine did not declare the "delta" capability`},
		{"delta-gap", "len is 2 but the previous timeline had 0 items and the delta carries 1"},
		{"delta-index", `items: key "01" is not an item index`},
		{"delta-item", `items[0].tool.name: missing required member`},
		{"delta-both", `a timeline reply with both "timeline" and "delta"`},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			c, err := start(t, tt.mode, newFakeClock())
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Event(ev(1))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if !c.Dead() {
				t.Error("the engine was not killed")
			}
		})
	}
}

// TestDeltaKeepsTheRest: items and diagnostics not in a delta are kept,
// and an absent now keeps the clock.
func TestDeltaKeepsTheRest(t *testing.T) {
	c, err := start(t, "delta-ok", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	first, err := c.Event(ev(1))
	if err != nil {
		t.Fatal(err)
	}
	second, err := c.Event(ev(2))
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Items) != 2 || second.Items[0] != first.Items[0] || second.Now != 7 ||
		len(second.Diagnostics) != 2 || second.Diagnostics[1].Code != "late_done" || len(first.Diagnostics) != 1 {
		t.Errorf("first %+v\nsecond %+v", first, second)
	}
}
