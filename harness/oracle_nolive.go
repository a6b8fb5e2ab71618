package harness

import (
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
)

// noLiveOracle checks §5.5: after turn_end, cancel and the end of the
// stream no tool is live. It keeps how many live tools each engine item
// held when last compared, so the check costs nothing when all is well.
type noLiveOracle struct {
	live  map[int]int // item index → live tools in it, for items with some
	total int
	rows  []row
}

func (o *noLiveOracle) observe(p *pass, s *step) {
	if o.live == nil {
		o.live = map[int]int{}
	}
	for k := range s.pairs {
		pr := &s.pairs[k]
		n := 0
		for _, r := range s.gotRows(pr) {
			if r.Tool() && !r.Status.Terminal() {
				n++
			}
		}
		o.total += n - o.live[pr.i]
		if n == 0 {
			delete(o.live, pr.i)
		} else {
			o.live[pr.i] = n
		}
	}
	k := s.ev.Kind
	if !s.last || o.total == 0 || (k != event.KindTurnEnd && k != event.KindCancel && k != endOfStream) {
		return
	}
	items := slices.Sorted(func(yield func(int) bool) {
		for i := range o.live {
			if !yield(i) {
				return
			}
		}
	})
	for _, i := range items {
		o.rows = model.ItemRows(o.rows[:0], s.tl.Items[i], 0, nil)
		for _, r := range o.rows {
			if r.Tool() && !r.Status.Terminal() {
				p.failf(s.ev.Seq, OracleNoLive, "tool %s is still %s after %s", r.ID, r.Status, k)
			}
		}
	}
}
