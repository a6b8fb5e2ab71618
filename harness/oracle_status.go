package harness

import (
	"fmt"

	"github.com/toolsim/toolsim/oracle"
	"github.com/toolsim/toolsim/timeline"
)

// statusOracle checks §5.2: a terminal status never changes, and a live
// tool moves only as docs/timeline.md allows. Tools are known by their
// place in start order, which the model supplies for each compared item
// whose shape matches it. The rule itself is oracle.Move, which the
// player applies too.
type statusOracle struct {
	prev []timeline.Status // by start order
}

func (o *statusOracle) observe(p *pass, s *step) {
	for k := range s.pairs {
		pr := &s.pairs[k]
		want, got := s.wantRows(pr), s.gotRows(pr)
		if !sameShape(want, got) {
			continue
		}
		for i, r := range want {
			if r.Tool() && r.Key >= 0 {
				o.move(p, s.ev.Seq, r.Key, r.ID, got[i].Status)
			}
		}
	}
}

func (o *statusOracle) move(p *pass, seq int64, key int, id string, after timeline.Status) {
	for len(o.prev) <= key {
		o.prev = append(o.prev, "")
	}
	before := o.prev[key]
	o.prev[key] = after
	if bad := oracle.Move(id, before, after); bad != "" {
		p.fail(Violation{Seq: seq, Oracle: OracleStatus, Detail: bad, subjects: about("tool "+id, fmt.Sprintf("tool status %s → %s", before, after))})
	}
}
