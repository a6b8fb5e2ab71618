package harness

import "github.com/toolsim/toolsim/timeline"

// statusOracle checks §5.2: a terminal status never changes, and a live
// tool moves only as docs/timeline.md allows. Tools are known by their
// place in start order, which the model supplies for each compared item
// whose shape matches it.
type statusOracle struct {
	prev []timeline.Status // by start order
}

// allowed lists the non-terminal status moves of docs/timeline.md.
var allowed = map[[2]timeline.Status]bool{
	{timeline.StatusRunning, timeline.StatusPending}: true,
	{timeline.StatusPending, timeline.StatusRunning}: true,
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
	switch {
	case before == "" || before == after:
	case before.Terminal():
		p.failf(seq, OracleStatus, "tool %s went from terminal %s to %s", id, before, after)
	case !after.Terminal() && !allowed[[2]timeline.Status{before, after}]:
		p.failf(seq, OracleStatus, "tool %s moved %s → %s", id, before, after)
	}
}
