package campaign_test

import (
	"testing"

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
