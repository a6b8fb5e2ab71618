package contract_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/contract"
)

// TestCheckEvidence: a documented behaviour needs its page and the
// sentence quoted, one by design a ref; evidence for an undeclared
// behaviour, or a behaviour with both labels, is an error naming it.
func TestCheckEvidence(t *testing.T) {
	page := contract.Evidence{URL: "https://example.test/docs", Quote: "It stays open."}
	code := contract.Evidence{Ref: "lib/flow.go:12"}
	doc := []contract.Behaviour{contract.OpenAfterTurn}
	design := []contract.Behaviour{contract.ResultsAtStepEnd}
	tests := []struct {
		name    string
		c       contract.Contract
		ev      map[contract.Behaviour]contract.Evidence
		wantErr string // "" for none
	}{
		{"nothing declared", contract.Contract{}, nil, ""},
		{"documented, quoted", contract.Contract{Documented: doc}, map[contract.Behaviour]contract.Evidence{contract.OpenAfterTurn: page}, ""},
		{"by design, with a ref", contract.Contract{ByDesign: design}, map[contract.Behaviour]contract.Evidence{contract.ResultsAtStepEnd: code}, ""},
		{"documented without evidence", contract.Contract{Documented: doc}, nil, `documented behaviour "open-after-turn"`},
		{"documented with a ref only", contract.Contract{Documented: doc}, map[contract.Behaviour]contract.Evidence{contract.OpenAfterTurn: code}, "lacks url (the page's address) and quote"},
		{"documented without its page", contract.Contract{Documented: doc},
			map[contract.Behaviour]contract.Evidence{contract.OpenAfterTurn: {Quote: "It stays open."}}, "lacks url (the page's address);"},
		{"documented without its quote", contract.Contract{Documented: doc},
			map[contract.Behaviour]contract.Evidence{contract.OpenAfterTurn: {URL: "https://example.test/docs"}}, "lacks quote (the sentences quoted from it);"},
		{"by design with a page only", contract.Contract{ByDesign: design}, map[contract.Behaviour]contract.Evidence{contract.ResultsAtStepEnd: page}, `by-design behaviour "results-at-step-end"`},
		{"evidence for nothing declared", contract.Contract{}, map[contract.Behaviour]contract.Evidence{contract.CancelDropsInFlight: code}, `"cancel-drops-in-flight", which is not declared`},
		{"both labels", contract.Contract{Documented: doc, ByDesign: doc}, map[contract.Behaviour]contract.Evidence{contract.OpenAfterTurn: page}, "both documented and by design"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.c.CheckEvidence(tt.ev)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("CheckEvidence: %v, want nil", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("CheckEvidence: %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}

// TestLabel: each declared behaviour's label, and both count as declared.
func TestLabel(t *testing.T) {
	c := contract.Contract{Documented: []contract.Behaviour{contract.OpenAfterTurn}, ByDesign: []contract.Behaviour{contract.ResultsAtStepEnd}}
	for b, want := range map[contract.Behaviour]string{
		contract.OpenAfterTurn:       contract.LabelDocumented,
		contract.ResultsAtStepEnd:    contract.LabelByDesign,
		contract.CancelDropsInFlight: "",
	} {
		if got := c.Label(b); got != want {
			t.Errorf("Label(%s) = %q, want %q", b, got, want)
		}
		if got := c.Documents(b); got != (want != "") {
			t.Errorf("Documents(%s) = %v, want %v", b, got, want != "")
		}
	}
	if got, want := c.String(), "; documented: open-after-turn; by design: results-at-step-end"; !strings.HasSuffix(got, want) {
		t.Errorf("String() = %q, want it to end %q", got, want)
	}
}

// TestDeclarationParse: a contract.json's lists become its contract, and
// an error names the field that is wrong.
func TestDeclarationParse(t *testing.T) {
	ok := contract.Declaration{Contract: []string{"calls-first"}, ByDesign: []string{"results-at-step-end"},
		Evidence: map[contract.Behaviour]contract.Evidence{contract.ResultsAtStepEnd: {Ref: "lib/flow.go:12"}}}
	c, err := ok.Parse()
	if err != nil || c.Label(contract.ResultsAtStepEnd) != contract.LabelByDesign || len(c.Guarantees) != 1 {
		t.Errorf("Parse() = %v, %v; want calls-first and results-at-step-end by design", c, err)
	}
	for field, d := range map[string]contract.Declaration{
		"contract:":   {Contract: []string{"calls-frist"}},
		"documented:": {Documented: []string{"open-after-lunch"}},
		"by_design:":  {ByDesign: []string{"open-after-lunch"}},
		"evidence:":   {Documented: []string{"open-after-turn"}},
	} {
		if _, err := d.Parse(); err == nil || !strings.HasPrefix(err.Error(), field) {
			t.Errorf("Parse() of a bad %s: error %v, want one starting %q", strings.TrimSuffix(field, ":"), err, field)
		}
	}
}
