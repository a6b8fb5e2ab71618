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
	// ResultsAtStepEnd: the library runs the calls of a step (one model
	// answer) in parallel and shows their results together, in one event
	// once the last call returned, so a call that finished early stays
	// running until its step ends (Google's ADK merging a step's function
	// responses). SPEC §2 shows a result when it comes. A result that is
	// never shown at all fails first the same way, and is set apart too.
	ResultsAtStepEnd Behaviour = "results-at-step-end"
	// ApprovalAfterResults: a call asks for approval while it runs, and the
	// library shows the request only after its step's results, so the call
	// stays running, not awaiting approval, while the other calls of its
	// step run (ADK yielding confirmation requests after the step's
	// function responses). SPEC §2 shows it awaiting approval when asked.
	// A request that is never shown at all fails first the same way, and
	// is set apart too.
	ApprovalAfterResults Behaviour = "approval-after-results"
	// CancelDropsInFlight: once the user cancels, the library sends
	// nothing more about the calls in flight, so they stay running as last
	// shown, and the app closes them itself when the run ends cancelled
	// (ADK draining its node goroutines without yielding what they send).
	// SPEC §2 interrupts every live call at the cancel. A library that
	// ignores the cancel and runs its calls on fails first the same way,
	// and is set apart too.
	CancelDropsInFlight Behaviour = "cancel-drops-in-flight"
)

// Behaviours lists every documented behaviour toolsim knows. Treat it as
// read-only.
var Behaviours = []Behaviour{OpenAfterTurn, ResultsAtStepEnd, ApprovalAfterResults, CancelDropsInFlight}

// Describe says what the behaviour is.
func (b Behaviour) Describe() string {
	switch b {
	case OpenAfterTurn:
		return "a call with no result stays running or awaiting approval when its turn or the stream ends"
	case ResultsAtStepEnd:
		return "a step's results are shown together once its last call returned, where SPEC shows each result when it comes"
	case ApprovalAfterResults:
		return "a call's approval request is shown only after its step's results, where SPEC shows the call awaiting approval when asked"
	case CancelDropsInFlight:
		return "after a cancel the calls in flight stay running, where SPEC interrupts every live call"
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
