package harness

// groupsOracle checks §5.3's shape rule on every compared item: a group
// holds two or more tools. (Which tools a group holds is the model
// oracle's comparison.)
type groupsOracle struct{}

func (groupsOracle) observe(p *pass, s *step) {
	for k := range s.pairs {
		for _, r := range s.gotRows(&s.pairs[k]) {
			if r.Kind == "group" && r.Members < 2 {
				p.failf(s.ev.Seq, OracleGroups, "a tool_group holds %d tools", r.Members)
			}
		}
	}
}
