package contract

import (
	"fmt"
	"slices"
	"strings"
)

// Behaviour names a library behaviour that SPEC §2 is stricter than. An
// engine that declares it (Contract.Documented or Contract.ByDesign)
// tells toolsim the library means to do it: findings that show it leave
// the default report and are listed apart, with the declaration's label.
type Behaviour string

// The documented behaviours toolsim knows.
const (
	// OpenAfterTurn: a call awaiting approval stays so when its turn or
	// the stream ends, because the app answers the request later (an
	// approval that outlives the response). SPEC §2 interrupts it. A
	// client-side tool the app answers later stays running the same way,
	// but its findings are not set apart: toolsim cannot tell it from a
	// server-side call whose result never came, so an app with client-side
	// tools shows them as it chooses and a call left running at a turn's
	// end is always reported.
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
		return "a call awaiting approval stays so when its turn or the stream ends"
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
// guarantees it relies on and the library behaviours SPEC §2 is stricter
// than, each with its evidence: Documented when the library's docs say it
// (the engine's declaration quotes the page), ByDesign when only its code,
// a test or a merged PR shows the intent. Both set findings apart; a
// report names which. No behaviour is in both lists (Check). The zero
// value declares nothing.
type Contract struct {
	Guarantees List
	Documented []Behaviour
	ByDesign   []Behaviour
}

// The labels of a declared behaviour's evidence (Contract.Label).
const (
	LabelDocumented = "documented"
	LabelByDesign   = "by design, undocumented"
)

// Declared reports whether the contract says anything.
func (c Contract) Declared() bool {
	return len(c.Guarantees) > 0 || len(c.Documented) > 0 || len(c.ByDesign) > 0
}

// Documents reports whether b is declared, documented or by design: a
// finding that shows it does not count as a bug.
func (c Contract) Documents(b Behaviour) bool {
	return slices.Contains(c.Documented, b) || slices.Contains(c.ByDesign, b)
}

// Label is b's evidence as declared: LabelDocumented, LabelByDesign, or
// "" when b is not declared.
func (c Contract) Label(b Behaviour) string {
	switch {
	case slices.Contains(c.Documented, b):
		return LabelDocumented
	case slices.Contains(c.ByDesign, b):
		return LabelByDesign
	}
	return ""
}

// Check reports a behaviour declared both documented and by design.
func (c Contract) Check() error {
	for _, b := range c.ByDesign {
		if slices.Contains(c.Documented, b) {
			return fmt.Errorf("behaviour %q is declared both documented and by design: its evidence is one or the other", b)
		}
	}
	return nil
}

// String writes the contract for headers and reports: the guarantees,
// then "documented: ..." and "by design: ..." when any.
func (c Contract) String() string {
	s := c.Guarantees.String()
	for _, part := range []struct {
		label string
		bs    []Behaviour
	}{{"documented", c.Documented}, {"by design", c.ByDesign}} {
		if len(part.bs) == 0 {
			continue
		}
		names := make([]string, len(part.bs))
		for i, b := range part.bs {
			names[i] = string(b)
		}
		s += "; " + part.label + ": " + strings.Join(names, ",")
	}
	return s
}

// Evidence is what shows a declared behaviour is the library's intent:
// for a documented one, the page's address (URL) and the sentences quoted
// from it (Quote), with where the pinned version holds them (Ref, when it
// ships its docs); for one by design, undocumented, the code at file:line
// of the pinned version, a test, or the merged PR that made it (Ref).
type Evidence struct {
	URL   string `json:"url,omitempty"`
	Quote string `json:"quote,omitempty"`
	Ref   string `json:"ref,omitempty"`
}

// CheckEvidence reports the first declared behaviour of c whose evidence
// in ev is missing or of the other kind (a documented one needs URL and
// Quote, one by design a Ref), or evidence for a behaviour c does not
// declare. Declarations are checked in order, then ev's keys sorted.
func (c Contract) CheckEvidence(ev map[Behaviour]Evidence) error {
	if err := c.Check(); err != nil {
		return err
	}
	for _, b := range c.Documented {
		e := ev[b]
		var missing []string
		if e.URL == "" {
			missing = append(missing, "url (the page's address)")
		}
		if e.Quote == "" {
			missing = append(missing, "quote (the sentences quoted from it)")
		}
		if len(missing) > 0 {
			return fmt.Errorf("documented behaviour %q: its evidence lacks %s; without a page, declare it by_design with a ref", b, strings.Join(missing, " and "))
		}
	}
	for _, b := range c.ByDesign {
		if ev[b].Ref == "" {
			return fmt.Errorf("by-design behaviour %q: its evidence needs a ref: the code at file:line of the pinned version, a test, or the merged PR", b)
		}
	}
	keys := make([]string, 0, len(ev))
	for b := range ev {
		keys = append(keys, string(b))
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !c.Documents(Behaviour(k)) {
			return fmt.Errorf("evidence for %q, which is not declared (documented or by_design)", k)
		}
	}
	return nil
}

// Declaration is an engine's contract.json, the file a JavaScript adapter
// or a page sends in init_ok: why, the features it supports, the
// guarantees of its upstream (Contract), the behaviours declared
// documented or by design, and each one's evidence.
type Declaration struct {
	Why        string                 `json:"why"`
	Features   []string               `json:"features"`
	Contract   []string               `json:"contract"`
	Documented []string               `json:"documented"`
	ByDesign   []string               `json:"by_design"`
	Evidence   map[Behaviour]Evidence `json:"evidence"`
}

// Parse is the contract d declares, its evidence checked
// (Contract.CheckEvidence); an error names the field.
func (d Declaration) Parse() (Contract, error) {
	var c Contract
	var err error
	if c.Guarantees, err = ParseNames(d.Contract); err != nil {
		return c, fmt.Errorf("contract: %w", err)
	}
	if c.Documented, err = ParseBehaviours(d.Documented); err != nil {
		return c, fmt.Errorf("documented: %w", err)
	}
	if c.ByDesign, err = ParseBehaviours(d.ByDesign); err != nil {
		return c, fmt.Errorf("by_design: %w", err)
	}
	if err := c.CheckEvidence(d.Evidence); err != nil {
		return c, fmt.Errorf("evidence: %w", err)
	}
	return c, nil
}
