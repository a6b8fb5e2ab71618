package campaign_test

import (
	"testing"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/harness/campaign"
)

// TestClassOf: the signatures of one bug share a class, and those of
// different bugs do not (the pairs come from docs/findings/*.md).
func TestClassOf(t *testing.T) {
	tests := []struct {
		name string
		a, b string
		same bool
	}{
		{"a result's two outcomes", "result: tool status running → ok", "result: tool status running → failed", true},
		{"an early result is a result", "result: tool error missing", "result before start: tool error missing", true},
		{"a live call's two states after a cancel", "cancel: tool status interrupted → running", "cancel: tool status interrupted → pending", true},
		{"the marks a cancel leaves", "cancel with nothing live: missing notice item", "cancel with nothing live: assistant item interrupted true → false", true},
		{"a cancel's marks are not its tools", "cancel: tool status interrupted → running", "cancel with nothing live: missing notice item", false},
		{"a turn's end and the stream's", "turn ended with tools live: tool status interrupted → running", "end of stream with permission pending: tool status interrupted → pending", true},
		{"a cancel is not an end", "cancel: tool status interrupted → running", "turn ended with tools live: tool status interrupted → running", false},
		{"a reused id's call is a started call", "tool start: started tool not shown", "id reused while live: a call of a reused id not shown", true},
		{"an early result's call not shown is its start's", "result before start: started tool not shown", "tool start: started tool not shown", true},
		{"an error notice whatever its trigger", "result before start: extra notice item", "diag: missing id: extra notice item", true},
		{"progress and a result are apart", "progress after result: tool status ok → running", "duplicate result: tool status failed → ok", false},
		{"a failure shown as success is not the reverse", "result: tool status failed → ok", "result: tool status ok → failed", false},
		{"a second result's two directions", "duplicate result: tool status failed → ok", "duplicate result: tool status ok → failed", false},
		{"permission states stay apart", "status: running → pending: tool status pending → running", "status: pending → denied: tool status denied → failed", false},
		{"whole-trace oracles by what they compared", "results in another order: final timeline differs", "the engine's own reload: final timeline differs", false},
		{"a result's field and its status", "result: tool error missing", "result: tool status ok → running", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ca, cb := campaign.ClassOf(tt.a), campaign.ClassOf(tt.b)
			if (ca == cb) != tt.same {
				t.Errorf("ClassOf(%q) = %q\nClassOf(%q) = %q\nwant same = %v", tt.a, ca, tt.b, cb, tt.same)
			}
		})
	}
}

func TestClassNames(t *testing.T) {
	tests := map[string]string{
		"diag: missing id: extra notice item":                          "any event: extra notice item",
		"cancel: tool status interrupted → running":                    "a cancel: tool status interrupted → live",
		"status: pending → denied: tool status denied → running":       "a permission: tool status denied → live",
		"tool start: started tool not shown":                           "a call starts: started tool not shown",
		"the engine's own reload: final timeline differs":              "the engine's own reload: final timeline differs",
		"turn end: after cancel, no separator: missing separator item": "an end: leaves no mark",
	}
	for sig, want := range tests {
		if got := campaign.ClassOf(sig); got != want {
			t.Errorf("ClassOf(%q) = %q, want %q", sig, got, want)
		}
	}
}

// TestDocuments: each documented behaviour sets apart its own signatures
// (those of docs/findings/*.md), not another behaviour's, nor the near
// misses (another rule or status change of the same class, other
// engines' bugs), and nothing when it is not declared.
func TestDocuments(t *testing.T) {
	own := map[contract.Behaviour][]string{
		contract.OpenAfterTurn: {"turn ended with tools live: tool status interrupted → pending",
			"end of stream with permission pending: tool status interrupted → pending", "end of stream with tools live: tool left pending"},
		contract.ResultsAtStepEnd:     {"result: tool status ok → running", "result: tool status failed → running"},
		contract.ApprovalAfterResults: {"status: running → pending: tool status pending → running"},
		contract.CancelDropsInFlight:  {"cancel: tool status interrupted → running"},
	}
	nearMisses := []string{
		"result: tool status ok → pending", "result: tool status running → ok", "result: tool status ok → failed",
		"duplicate result: tool status ok → running", "progress after result: tool status ok → running",
		"result after cancel: tool status interrupted → running", "result: tool error missing",
		"status: running → pending: tool status pending → failed", "status: pending → denied: tool status denied → running",
		"status: pending → running: tool status running → pending",
		"cancel: tool status interrupted → pending", "cancel: tool left running", "cancel with nothing live: missing notice item",
		"turn end: tool left running", "turn ended with tools live: tool status ok → running",
		// a call left running at a turn's end: open-after-turn is approvals only
		"turn ended with tools live: tool status interrupted → running", "end of stream with tools live: tool left running",
		"turn ended with tools live: screen: a call shows running after turn_end",
		// a call nobody asked about shown asking for approval (screen-settled lets a real request ask)
		"turn ended with permission pending: screen: a call asks for approval nobody awaits after turn_end",
	}
	type test struct {
		name     string
		declared []contract.Behaviour
		sig      string
		want     contract.Behaviour
	}
	var tests []test
	for _, b := range contract.Behaviours {
		if len(own[b]) == 0 {
			t.Fatalf("no signature of %s in this test", b)
		}
		for _, sig := range own[b] {
			tests = append(tests, test{"not declared/" + sig, nil, sig, ""},
				test{"all declared/" + sig, contract.Behaviours, sig, b})
			for _, other := range contract.Behaviours {
				want := contract.Behaviour("")
				if other == b {
					want = b
				}
				tests = append(tests, test{string(other) + "/" + sig, []contract.Behaviour{other}, sig, want})
			}
		}
	}
	for _, sig := range nearMisses {
		tests = append(tests, test{"all declared/" + sig, contract.Behaviours, sig, ""})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := contract.Contract{Guarantees: contract.Executor, Documented: tt.declared}
			if got := campaign.Documents(c, tt.sig); got != tt.want {
				t.Errorf("Documents(documented %v, %q) = %q, want %q", tt.declared, tt.sig, got, tt.want)
			}
		})
	}
}

// TestPlural counts in English: one of a thing, any other number of
// things.
func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n          int
		what, want string
	}{{0, "failing seed", "0 failing seeds"}, {1, "failing seed", "1 failing seed"}, {2, "failing seed", "2 failing seeds"},
		{0, "bug class", "0 bug classes"}, {1, "bug class", "1 bug class"}, {3, "match", "3 matches"}} {
		if got := campaign.Plural(tt.n, tt.what); got != tt.want {
			t.Errorf("Plural(%d, %q) = %q, want %q", tt.n, tt.what, got, tt.want)
		}
	}
}
