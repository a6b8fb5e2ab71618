package engineproto_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/timeline"
)

// TestSnapshotChangesNothing: the reference server, with deltas or whole
// timelines, answers snapshot with the whole timeline the last reply
// built, decoded on its own (no shared item, no version); the next delta
// still applies to that reply's timeline, whose unchanged items the next
// timeline shares.
func TestSnapshotChangesNothing(t *testing.T) {
	ignore := cmp.Options{cmpopts.IgnoreFields(timeline.Item{}, "Version"), cmpopts.EquateEmpty()}
	for _, mode := range []string{"reference", "reference-full"} {
		t.Run(mode, func(t *testing.T) {
			c, err := start(t, mode, newFakeClock())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if !c.Info.Has(engineproto.CapSnapshot) {
				t.Fatalf("capabilities %v lack snapshot", c.Info.Capabilities)
			}
			for seed, evs := range scenarios(10) {
				if err := c.Reset(); err != nil {
					t.Fatal(err)
				}
				half := len(evs) / 2
				tls, err := c.Batch(evs[:half], false)
				if err != nil {
					t.Fatal(err)
				}
				built := &timeline.Timeline{}
				if len(tls) > 0 {
					built = tls[len(tls)-1]
				}
				whole, err := c.Snapshot()
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(built, whole, ignore); diff != "" {
					t.Fatalf("seed %d (-built +snapshot):\n%s", seed, diff)
				}
				for i, it := range whole.Items {
					if it.Version != 0 || it == built.Items[i] {
						t.Fatalf("seed %d: snapshot item %d is shared or has version %d", seed, i, it.Version)
					}
				}
				rest, err := c.Batch(evs[half:], true)
				if err != nil {
					t.Fatal(err)
				}
				next := rest[0]
				for i, it := range built.Items {
					if i < len(next.Items) && next.Items[i].Same(it) && next.Items[i] != it {
						t.Fatalf("seed %d: item %d unchanged after the snapshot but not shared with the timeline before it", seed, i)
					}
				}
			}
		})
	}
}

// TestSnapshotRefusals: Snapshot needs the capability (an error that
// leaves the engine running), and a delta answering it is an engine
// failure.
func TestSnapshotRefusals(t *testing.T) {
	c, err := start(t, "delta-ok", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Snapshot(); err == nil || !strings.Contains(err.Error(), "the engine did not declare the snapshot capability") || c.Dead() {
		t.Errorf("without the capability: err %v, dead %v", err, c.Dead())
	}
	c.Close()
	c, err = start(t, "snapshot-delta", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Snapshot(); err == nil || !strings.Contains(err.Error(), `snapshot: a snapshot must be answered with a whole "timeline", not a delta`) || !c.Dead() {
		t.Errorf("a delta: err %v, dead %v", err, c.Dead())
	}
}
