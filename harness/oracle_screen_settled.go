package harness

import (
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// screenSettled checks that after a turn's end, a cancel and the end of
// the stream no row shows a running call, and none asks for approval
// unless its call really awaits one: a permission was asked for its id,
// not answered, and no result came.
type screenSettled struct {
	awaiting map[string]bool
}

func (o *screenSettled) observe(p *pass, s *step) {
	if o.awaiting == nil {
		o.awaiting = map[string]bool{}
	}
	ev := s.ev
	if s.first {
		switch {
		case ev.Kind == event.KindPermission:
			o.awaiting[ev.ID] = ev.State == event.PermissionAsked
		case ev.Kind == event.KindToolDone:
			delete(o.awaiting, ev.ID)
		}
	}
	if !s.last || !endsTurn(ev.Kind) {
		return
	}
	for _, it := range s.tl.Items {
		eachShown(it, func(t *timeline.Tool) {
			if t.Status == timeline.StatusRunning || (t.Status == timeline.StatusPending && !o.awaiting[t.ID]) {
				what := "shows running"
				if t.Status == timeline.StatusPending {
					what = "asks for approval nobody awaits"
				}
				p.fail(Violation{Seq: ev.Seq, Oracle: OracleScreenSettled,
					Detail:   fmt.Sprintf("after %s the row of %q %s", ev.Kind, t.ID, what),
					subjects: about("tool "+t.ID, fmt.Sprintf("screen: a call %s after %s", what, ev.Kind))})
			}
		})
	}
}
