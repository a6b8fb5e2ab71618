package engineproto_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/timeline"
)

// TestBatchFinalIsBatchsLast: for many scenarios, on an engine sending
// deltas and one sending whole timelines, BatchFinal returns the timeline
// Batch returns last, and the next batch's deltas still apply after it
// (the client's state is the final timeline).
func TestBatchFinalIsBatchsLast(t *testing.T) {
	for _, mode := range []string{"reference", "reference-full"} {
		t.Run(mode, func(t *testing.T) {
			c, err := start(t, mode, newFakeClock())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			for seed, evs := range scenarios(60) {
				if err := c.Reset(); err != nil {
					t.Fatal(err)
				}
				all, err := c.Batch(evs, true)
				if err != nil {
					t.Fatal(err)
				}
				if err := c.Reset(); err != nil {
					t.Fatal(err)
				}
				got, err := c.BatchFinal(evs)
				if err != nil {
					t.Fatal(err)
				}
				want := all[len(all)-1]
				if diff := cmp.Diff(want, got, cmpopts.IgnoreFields(timeline.Item{}, "Version")); diff != "" {
					t.Fatalf("seed %d (-Batch +BatchFinal):\n%s", seed, diff)
				}
				for i, it := range got.Items {
					if it.Version == 0 {
						t.Fatalf("seed %d: item %d has no version", seed, i)
					}
				}
				// The state the next delta applies to is the final timeline:
				// a batch more gives what it gives after Batch.
				more := evs[len(evs)-1:]
				after, err := c.Batch(more, false)
				if err != nil {
					t.Fatalf("seed %d: a batch after BatchFinal: %v", seed, err)
				}
				if err := c.Reset(); err != nil {
					t.Fatal(err)
				}
				if _, err := c.Batch(evs, true); err != nil {
					t.Fatal(err)
				}
				wantAfter, err := c.Batch(more, false)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(wantAfter, after, cmpopts.IgnoreFields(timeline.Item{}, "Version")); diff != "" {
					t.Fatalf("seed %d: the batch after (-after Batch +after BatchFinal):\n%s", seed, diff)
				}
			}
		})
	}
}

// TestBatchFinalNeedsBatch: without the batch capability it fails as
// Batch does.
func TestBatchFinalNeedsBatch(t *testing.T) {
	c, err := start(t, "reference", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Info.Capabilities = []string{engineproto.CapTimeline}
	if _, err := c.BatchFinal(scenarios(1)[0]); err == nil {
		t.Fatal("BatchFinal without the batch capability: no error")
	}
}

// TestBatchErrorsNameTheReply: an item that does not decode is reported
// against the reply that carried it, by Batch as it reads it and by
// BatchFinal when it decodes the last timeline.
func TestBatchErrorsNameTheReply(t *testing.T) {
	evs := scenarios(1)[0][:3]
	for _, final := range []bool{false, true} {
		c, err := start(t, "batch-bad-item", newFakeClock())
		if err != nil {
			t.Fatal(err)
		}
		if final {
			_, err = c.BatchFinal(evs)
		} else {
			_, err = c.Batch(evs, true)
		}
		c.Close()
		var ee *engineproto.EngineError
		if !errors.As(err, &ee) || !strings.Contains(ee.Message, "timeline 1 of 4") || !strings.Contains(ee.Reason, "the delta does not apply") {
			t.Errorf("final=%v: got %v, want an engine error about timeline 1 of 4 whose delta does not apply", final, err)
		}
	}
}

// TestBatchReplyTimeout: within a batch, each reply has the whole timeout
// (one timer, armed again after each reply), and the one that never comes
// is named when the timeout fires, for Batch and BatchFinal.
func TestBatchReplyTimeout(t *testing.T) {
	evs := scenarios(1)[0][:3]
	for _, final := range []bool{false, true} {
		clk := newFakeClock()
		c, err := start(t, "batch-hang", clk)
		if err != nil {
			t.Fatal(err)
		}
		base := clk.armCount() // init's
		errc := make(chan error, 1)
		go func() {
			var err error
			if final {
				_, err = c.BatchFinal(evs)
			} else {
				_, err = c.Batch(evs, true)
			}
			errc <- err
		}()
		clk.fireArmed(base + 3) // the wait for the batch's third reply
		err = <-errc
		c.Close()
		var ee *engineproto.EngineError
		if !errors.As(err, &ee) || !strings.Contains(ee.Message, "timeline 3 of 4") || !strings.Contains(ee.Reason, "no reply within") {
			t.Errorf("final=%v: got %v, want no reply within the timeout for timeline 3 of 4", final, err)
		}
	}
}
