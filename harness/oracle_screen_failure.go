package harness

import (
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// screenFailure checks that a call whose every result failed is never
// shown as a success. Each id is reported once.
type screenFailure struct {
	failed   map[string]bool // id → every result so far failed
	reported map[string]bool
}

func (o *screenFailure) observe(p *pass, s *step) {
	if o.failed == nil {
		o.failed, o.reported = map[string]bool{}, map[string]bool{}
	}
	if ev := s.ev; s.first && ev.Kind == event.KindToolDone {
		was, seen := o.failed[ev.ID]
		o.failed[ev.ID] = !ev.OK && (!seen || was)
	}
	if !s.last {
		return
	}
	for _, it := range s.tl.Items {
		eachShown(it, func(t *timeline.Tool) {
			if t.Status == timeline.StatusOK && o.failed[t.ID] && !o.reported[t.ID] {
				o.reported[t.ID] = true
				p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleScreenFailure,
					Detail:   fmt.Sprintf("call %q failed, and its row shows it done", t.ID),
					subjects: about("tool "+t.ID, "screen: a failed call shown as a success")})
			}
		})
	}
}
