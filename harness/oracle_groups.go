package harness

import "github.com/toolsim/toolsim/oracle"

// groupsOracle checks §5.3's shape rule on every compared item: a group
// holds two or more tools. (Which tools a group holds is the model
// oracle's comparison.)
type groupsOracle struct{}

func (groupsOracle) observe(p *pass, s *step) {
	for k := range s.pairs {
		for _, r := range s.gotRows(&s.pairs[k]) {
			if r.Kind != "group" {
				continue
			}
			if bad := oracle.SmallGroup(r.Members); bad != "" {
				p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleGroups, Detail: bad, subjects: about(OracleGroups, "group of fewer than 2 tools")})
			}
		}
	}
}
