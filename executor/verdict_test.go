package executor

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
)

// TestRegressionVerdicts: a kept trace's folder says what its first
// failure must be: a bug the baseline lists (top level), a behaviour
// declared documented (documented/) or by design (by-design/), and none
// at all under recipe/.
func TestRegressionVerdicts(t *testing.T) {
	const stepEnd = "result: tool status ok → running" // results-at-step-end's signature
	v := harness.Violation{Signature: stepEnd, Oracle: harness.OracleModel}
	byDesign := contract.Contract{ByDesign: []contract.Behaviour{contract.ResultsAtStepEnd}}
	documented := contract.Contract{Documented: []contract.Behaviour{contract.ResultsAtStepEnd}}
	base := &campaign.Baseline{Entries: []campaign.BaselineEntry{{Signature: stepEnd}}}
	tests := []struct {
		name, dir string
		c         contract.Contract
		base      *campaign.Baseline
		want      string // a substring of the verdict, "" for none
	}{
		{"by design, declared so", "by-design", byDesign, nil, ""},
		{"by design, declared documented", "by-design", documented, nil, "no behaviour declared by design"},
		{"documented, declared so", "documented", documented, nil, ""},
		{"documented, declared by design", "documented", byDesign, nil, "no declared documented behaviour"},
		{"a bug the baseline lists", "", contract.Contract{}, base, ""},
		{"a bug the baseline lacks", "", contract.Contract{}, &campaign.Baseline{}, "the baseline does not list as a bug"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := failVerdict("x.jsonl", tt.dir, v, tt.c, tt.base)
			if tt.want == "" && got != "" || tt.want != "" && !strings.Contains(got, tt.want) {
				t.Errorf("failVerdict = %q, want %q", got, tt.want)
			}
		})
	}
	if got := recipeVerdict("r.jsonl", nil); got != "" {
		t.Errorf("a recipe trace that passes: verdict %q, want none", got)
	}
	if got := recipeVerdict("r.jsonl", []harness.Violation{v}); !strings.Contains(got, "fails again with") {
		t.Errorf("a recipe trace that fails: verdict %q, want one saying it fails again", got)
	}
}
