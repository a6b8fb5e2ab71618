package campaign

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/oracle"
)

// A bug class groups the signatures of one bug (docs/findings.md, "Bug
// classes"). The rule is deterministic and reads only the signature, so
// that merged shard reports and baselines class their findings as a run
// does:
//
//   - the RULE half becomes its trigger: the kind of event whose rule it
//     is (a call starts, a result, progress, a permission, a cancel, the
//     end of a turn or of the stream), or the rule itself for the others
//     and for whole-trace oracles;
//   - the WHAT half is folded: a result's two outcomes (ok, failed) are
//     one when the other side is not a result, the two live states
//     (running, pending) are one when the other side is not live, "a
//     call of a reused id not shown" is "started tool not shown", and the
//     marks an event leaves on the transcript (a notice, a separator, text
//     marked interrupted) missing are one outcome, "leaves no mark";
//   - an extra error notice is one class whatever its trigger: the engine
//     rejecting an input it cannot pair;
//   - a result before its call is a result, but whether the call is shown
//     at all is its start's.
//
// Two signatures with the same trigger and folded outcome are one class.

// triggers maps the rules of the model to the event kind they govern.
var triggers = map[string]string{
	"tool start": "a call starts", "meta tool": "a call starts", model.StateSubagent: "a call starts",
	model.RuleUnknownParent: "a call starts", model.RuleParentEnded: "a call starts",
	model.StateLiveIDReused: "a call starts", model.RuleIDReusedAfterEnd: "a call starts",

	"result": "a result", model.StateResultFirst: "a result", model.StateDuplicateResult: "a result",
	model.StateDeniedResult: "a result", model.StateResultAfterCancel: "a result",
	model.StateResultAfterEnd: "a result", model.RuleResultForNoLive: "a result",

	"progress": "progress", model.StateProgressAfter: "progress", model.RuleLateProgress: "progress",
	model.RuleProgressAfterDenial: "progress", model.RuleUnknownProgress: "progress",

	model.RulePermissionAsked: "a permission", model.RulePermissionGranted: "a permission",
	model.RulePermissionDenied: "a permission", model.RuleLatePermission: "a permission",

	model.RuleCancel: "a cancel", model.RuleCancelNothingLive: "a cancel",

	"turn end": "an end", model.StateTurnEndLive: "an end", model.RuleTurnEndPending: "an end",
	model.RuleUnknownResultAtTurnEnd: "an end", model.RuleNoSeparatorUser: "an end",
	model.RuleNoSeparatorCancel: "an end", "end of stream": "an end", model.RuleEndWithLive: "an end",
	model.RuleEndPending: "an end", model.RuleUnknownResultAtEnd: "an end",
}

// splitSignature cuts a signature into RULE and WHAT: at the first ": "
// after the longest rule name it starts with (rule names may hold ": "
// themselves, as "diag: missing id").
func splitSignature(sig string) (rule, what string) {
	best := ""
	for r := range triggers {
		if len(r) > len(best) && strings.HasPrefix(sig, r+": ") {
			best = r
		}
	}
	for _, r := range []string{model.RuleMissingID, "engine reset", "the trace"} {
		if len(r) > len(best) && strings.HasPrefix(sig, r+": ") {
			best = r
		}
	}
	for _, r := range oracle.WholeTrace {
		if len(r) > len(best) && strings.HasPrefix(sig, r+": ") {
			best = r
		}
	}
	if best == "" {
		rule, what, _ = strings.Cut(sig, ": ")
		return rule, what
	}
	return best, sig[len(best)+2:]
}

// ClassOf names the bug class of a signature: "TRIGGER: OUTCOME" (see the
// rule above). Signatures of one class share the name.
func ClassOf(sig string) string {
	rule, what := splitSignature(sig)
	if what == "extra notice item" {
		return "any event: extra notice item"
	}
	trigger, ok := triggers[rule]
	if !ok {
		trigger = rule
	}
	what = foldWhat(what)
	if rule == model.StateResultFirst && what == "started tool not shown" {
		trigger = "a call starts" // whether a call is shown is its start's
	}
	return trigger + ": " + what
}

// noMark are the outcomes of an event whose mark on the transcript is
// missing.
var noMark = map[string]bool{
	"missing notice item":                     true,
	"missing separator item":                  true,
	"assistant item interrupted true → false": true,
}

// foldWhat folds the variants of one outcome.
func foldWhat(what string) string {
	switch {
	case noMark[what]:
		return "leaves no mark"
	case strings.HasSuffix(what, "a call of a reused id not shown"):
		return "started tool not shown"
	case strings.HasPrefix(what, "tool left "):
		return "tool left live"
	}
	const status = "tool status "
	rest, ok := strings.CutPrefix(what, status)
	if !ok {
		return what
	}
	want, got, ok := strings.Cut(rest, " → ")
	if !ok {
		return what
	}
	return status + fold(want, got) + " → " + fold(got, want)
}

// fold names a status s, compared with other: ok and failed are "done"
// unless other is a result too, running and pending are "live" unless
// other is live too.
func fold(s, other string) string {
	done := func(x string) bool { return x == "ok" || x == "failed" }
	live := func(x string) bool { return x == "running" || x == "pending" }
	switch {
	case done(s) && !done(other):
		return "done"
	case live(s) && !live(other):
		return "live"
	}
	return s
}

// Documents returns the documented behaviour of c that signature sig
// shows, or "": a finding with it is not counted as a bug.
//
// A signature is a rule and the first difference it made, so a declared
// behaviour sets apart every failure whose first difference is its own,
// whatever comes next: a different bug that fails first the same way (a
// result never shown at all, under results-at-step-end) is set apart with
// it, and what it does later is a finding seen only after it, listed but
// not counted. Each behaviour but open-after-turn therefore matches only
// its exact signatures (documentedSignatures), never another rule or
// status change of the same class.
func Documents(c contract.Contract, sig string) contract.Behaviour {
	if c.Documents(contract.OpenAfterTurn) && openAfterTurn(sig) {
		return contract.OpenAfterTurn
	}
	for b, sigs := range documentedSignatures {
		if c.Documents(b) && slices.Contains(sigs, sig) {
			return b
		}
	}
	return ""
}

// documentedSignatures are the signatures each documented behaviour but
// open-after-turn shows (docs/findings/adk.md): the rule of the event and
// the exact status change a UI on such a library shows. No two share one.
var documentedSignatures = map[contract.Behaviour][]string{
	// a result comes while other calls of its step run: still running
	contract.ResultsAtStepEnd: {"result: tool status ok → running", "result: tool status failed → running"},
	// the call asks for approval while others of its step run: still running
	contract.ApprovalAfterResults: {model.RulePermissionAsked + ": tool status pending → running"},
	// the user cancels while calls run: still running
	contract.CancelDropsInFlight: {model.RuleCancel + ": tool status interrupted → running"},
}

// openAfterTurn reports whether sig is a call left awaiting approval by
// the end of its turn or of the stream: SPEC interrupts it, the library
// keeps the request open for the app to answer later. Under the "tools
// live" rules a call never asked about but shown pending matches too: the
// signature does not say which call it is. A call left running
// is not matched: a signature cannot tell a client-side tool the app
// answers later from a server-side tool whose result never came, and the
// second is a spinner nobody stops (docs/findings.md, "open-after-turn").
func openAfterTurn(sig string) bool {
	rule, what := splitSignature(sig)
	switch rule {
	case model.StateTurnEndLive, model.RuleTurnEndPending, model.RuleEndWithLive, model.RuleEndPending:
	default:
		return false
	}
	// Not the screen-settled oracle's "a call asks for approval nobody
	// awaits": it lets a call that really awaits approval ask, so what it
	// reports is a call nobody asked about shown as asking (assistant-ui's
	// requires-action for a call without a result), which is reported.
	return what == "tool status interrupted → pending" || what == "tool left pending"
}

// Class is one bug: its name (ClassOf) and the findings that show it.
type Class struct {
	Name     string
	Findings []*Finding
}

// Classes groups the findings the run reports as bugs of the engine
// (Report.Counts, not seen only after another, not flaky) into classes, in
// the order of their first finding.
func (r *Report) Classes() []Class {
	var out []Class
	at := map[string]int{}
	for _, f := range r.Findings {
		if f.After != "" || f.Flaky != "" || !r.Counts(f) {
			continue
		}
		name := f.Class
		if name == "" {
			name = ClassOf(f.Signature)
		}
		i, ok := at[name]
		if !ok {
			i = len(out)
			at[name] = i
			out = append(out, Class{Name: name})
		}
		out[i].Findings = append(out[i].Findings, f)
	}
	return out
}

// Bugs is the line that counts the classes: "N bugs in M signatures".
func (r *Report) Bugs() string {
	classes := r.Classes()
	n := 0
	for _, c := range classes {
		n += len(c.Findings)
	}
	return Plural(len(classes), "bug") + " in " + Plural(n, "signature")
}

// Plural counts n of what, in English: "1 seed", "3 seeds", "2 bug
// classes" (what takes an s, or es after s, x, ch or sh).
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	for _, end := range []string{"s", "x", "ch", "sh"} {
		if strings.HasSuffix(what, end) {
			return strconv.Itoa(n) + " " + what + "es"
		}
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// Rate prints a rate with the digits a reader needs: whole numbers from
// 10 up, one decimal from 1, and two significant digits below, so a slow
// engine's rate never prints as 0.
func Rate(r float64) string {
	switch {
	case r >= 10 || r == 0:
		return fmt.Sprintf("%.0f", r)
	case r >= 1:
		return fmt.Sprintf("%.1f", r)
	}
	return strconv.FormatFloat(r, 'g', 2, 64)
}
