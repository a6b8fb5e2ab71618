package sim

import "github.com/toolsim/toolsim/fault"

// faultSet is a set of faults switched on for one scenario.
type faultSet map[fault.Fault]bool

func (s faultSet) list() fault.List {
	var out fault.List
	for _, f := range fault.All() {
		if s[f] {
			out = append(out, f)
		}
	}
	return out
}
