package engineproto

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// TestBatchSplitsLongTraces: a trace over the batch size goes in several
// messages, and the timelines come back as if it were one.
func TestBatchSplitsLongTraces(t *testing.T) {
	defer func(old int) { maxBatch = old }(maxBatch)
	maxBatch = 300
	t.Setenv("ENGINEPROTO_FAKE", "reference")
	c, err := Start([]string{os.Args[0]}, Options{Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var evs []event.Event
	for i := range 12 {
		evs = append(evs, event.Event{Seq: int64(i + 1), T: int64(i), Kind: event.KindToolStart, ID: fmt.Sprint("t", i), Name: "grep"})
	}
	before := c.nextID
	tls, err := c.Batch(evs, true)
	if err != nil {
		t.Fatal(err)
	}
	if msgs := c.nextID - before; msgs < 3 {
		t.Errorf("%d batch messages, want the trace split in several", msgs)
	}
	if len(tls) != len(evs)+1 {
		t.Fatalf("%d timelines, want %d", len(tls), len(evs)+1)
	}
	last := tls[len(tls)-1]
	n := 0
	for _, it := range last.Items {
		it.EachTool(func(tool *timeline.Tool) bool {
			if tool.Status == timeline.StatusInterrupted {
				n++
			}
			return true
		})
	}
	if n != len(evs) || len(tls[5].Items) != 1 || len(tls[5].Items[0].Tools) != 6 {
		t.Errorf("after finish %d tools interrupted, want %d; timeline 6: %d items", n, len(evs), len(tls[5].Items))
	}
}
