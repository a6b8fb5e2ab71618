package harness

import (
	"fmt"

	"github.com/toolsim/toolsim/event"
)

// screenOnce checks that each started call is on the page exactly once:
// as many rows with an id as tool_start events gave it, and no row for an
// id no call started. Each id is reported once.
type screenOnce struct {
	starts   map[string]int
	order    []string
	reported map[string]bool
}

func (o *screenOnce) observe(p *pass, s *step) {
	if o.starts == nil {
		o.starts, o.reported = map[string]int{}, map[string]bool{}
	}
	if s.first && s.ev.Kind == event.KindToolStart {
		if o.starts[s.ev.ID] == 0 {
			o.order = append(o.order, s.ev.ID)
		}
		o.starts[s.ev.ID]++
	}
	if !s.last {
		return
	}
	n := shown(s.tl)
	for _, id := range o.order {
		if got, want := n[id], o.starts[id]; got != want && !o.reported[id] {
			o.reported[id] = true
			p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleScreenOnce,
				Detail:   fmt.Sprintf("%d call(s) started with id %q, the page shows %d row(s) with it", want, id, got),
				subjects: about("tool "+id, fmt.Sprintf("screen: %s call(s) on %s row(s)", count(want), count(got)))})
		}
	}
	for id := range n {
		if o.starts[id] == 0 && !o.reported[id] {
			o.reported[id] = true
			p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleScreenOnce,
				Detail:   fmt.Sprintf("the page shows a row for %q, a call that never started", id),
				subjects: about("tool "+id, "screen: a row for a call never started")})
		}
	}
}

// count words a number of calls or rows for a signature: 0, 1 or "2+".
func count(n int) string {
	if n > 1 {
		return "2+"
	}
	return fmt.Sprint(n)
}
