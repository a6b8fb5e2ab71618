package engineflag

import (
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/contract"
)

func TestDurationArg(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{60 * time.Second, "60s"},
		{90 * time.Minute, "5400s"},
		{1500 * time.Millisecond, "1500ms"},
		{1500 * time.Microsecond, "1.5ms"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			got := durationArg(tt.d)
			if got != tt.want {
				t.Errorf("durationArg(%v) = %q, want %q", tt.d, got, tt.want)
			}
			if back, err := time.ParseDuration(got); err != nil || back != tt.d {
				t.Errorf("%q parses back to %v, %v; want %v", got, back, err, tt.d)
			}
		})
	}
}

// TestByDesignFlag: --by-design declares behaviours by design, which the
// reproduce command repeats; one given to both --documented and
// --by-design is an error naming both flags.
func TestByDesignFlag(t *testing.T) {
	f := Flags{ByDesign: "results-at-step-end", Documented: "open-after-turn"}
	o, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	if got := o.Contract.Label(contract.ResultsAtStepEnd); got != contract.LabelByDesign {
		t.Errorf("results-at-step-end labelled %q, want %q", got, contract.LabelByDesign)
	}
	if got := o.Contract.Label(contract.OpenAfterTurn); got != contract.LabelDocumented {
		t.Errorf("open-after-turn labelled %q, want %q", got, contract.LabelDocumented)
	}
	if args := f.optionArgs(); !strings.Contains(args, "--by-design results-at-step-end") {
		t.Errorf("reproduce flags %q lack --by-design", args)
	}
	f.ByDesign = "open-after-turn"
	if _, err := f.Options(); err == nil || !strings.Contains(err.Error(), "--documented and --by-design") {
		t.Errorf("one behaviour under both flags: error %v, want one naming both flags", err)
	}
	f.ByDesign = "late-everything"
	if _, err := f.Options(); err == nil || !strings.Contains(err.Error(), "--by-design") {
		t.Errorf("an unknown name: error %v, want one naming --by-design", err)
	}
}
