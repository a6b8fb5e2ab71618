package contract

import (
	"slices"
	"strings"
)

// Behaviour names a library's documented behaviour that SPEC §2 is
// stricter than. An engine that declares it tells toolsim the library
// means to do it: findings that show it leave the default report and are
// listed as documented.
type Behaviour string

// The documented behaviours toolsim knows.
const (
	// OpenAfterTurn: a call with no result stays as it was (running, or
	// awaiting approval) when its turn or the stream ends, because the app
	// answers it later (client-side tools, approvals that outlive the
	// response). SPEC §2 interrupts it.
	OpenAfterTurn Behaviour = "open-after-turn"
)

// Behaviours lists every documented behaviour toolsim knows. Treat it as
// read-only.
var Behaviours = []Behaviour{OpenAfterTurn}

// Describe says what the behaviour is.
func (b Behaviour) Describe() string {
	switch b {
	case OpenAfterTurn:
		return "a call with no result stays running or awaiting approval when its turn or the stream ends"
	}
	return "?"
}

// ParseBehaviours reads documented behaviour names, as a comma list's
// parts or the protocol's init_ok "documented" array. Duplicates are
// dropped; an unknown name gives an [*UnknownError].
func ParseBehaviours(names []string) ([]Behaviour, error) {
	var out []Behaviour
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || n == "none" {
			continue
		}
		b := Behaviour(n)
		if !slices.Contains(Behaviours, b) {
			known := []string{"none"}
			for _, k := range Behaviours {
				known = append(known, string(k))
			}
			return nil, &UnknownError{What: "documented behaviour", Name: n, Known: known}
		}
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out, nil
}

// Contract is what an engine declares about its real upstream: the
// guarantees it relies on and the library's documented behaviours. The
// zero value declares nothing.
type Contract struct {
	Guarantees List
	Documented []Behaviour
}

// Declared reports whether the contract says anything.
func (c Contract) Declared() bool { return len(c.Guarantees) > 0 || len(c.Documented) > 0 }

// Documents reports whether b is declared documented behaviour.
func (c Contract) Documents(b Behaviour) bool { return slices.Contains(c.Documented, b) }

// String writes the contract for headers and reports: the guarantees,
// then "documented: ..." when any.
func (c Contract) String() string {
	s := c.Guarantees.String()
	if len(c.Documented) > 0 {
		names := make([]string, len(c.Documented))
		for i, b := range c.Documented {
			names[i] = string(b)
		}
		s += "; documented: " + strings.Join(names, ",")
	}
	return s
}
