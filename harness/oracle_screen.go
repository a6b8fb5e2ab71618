package harness

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// The screen oracles (Options.Screen) judge what a page shows, read back
// from it, against the trace alone: they keep what the events said of
// each call id and look at the whole timeline once per step. A page's
// timeline is small, so the scan costs little; they run only for engines
// that declare the screen capability.

// shown counts, per call id, the tools the timeline shows.
func shown(tl *timeline.Timeline) map[string]int {
	n := map[string]int{}
	for _, it := range tl.Items {
		eachShown(it, func(t *timeline.Tool) { n[t.ID]++ })
	}
	return n
}

// endsTurn reports whether the step follows a turn's end, a cancel or the
// end of the stream.
func endsTurn(k event.Kind) bool {
	return k == event.KindTurnEnd || k == event.KindCancel || k == endOfStream
}
