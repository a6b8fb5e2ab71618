package engineproto_test

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engineproto"
)

// startMode runs the test binary as an engine in the given mode.
func startMode(t *testing.T, mode string) (*engineproto.Client, error) {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	return engineproto.Start([]string{os.Args[0]}, engineproto.Options{Timeout: time.Minute})
}

// TestInfoFeaturesAndGrouping: init_ok's features and grouping reach
// Info; an engine that says nothing groups and supports every feature.
func TestInfoFeaturesAndGrouping(t *testing.T) {
	c, err := startMode(t, "no-grouping")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Info.Grouping || !slices.Equal(c.Info.Features, []string{"tools", "text"}) {
		t.Errorf("info %+v, want features [tools text] and no grouping", c.Info)
	}
	d, err := startMode(t, "reference")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if !d.Info.Grouping || d.Info.Features != nil {
		t.Errorf("info %+v, want grouping and nil features", d.Info)
	}
}

// TestInfoContract: init_ok's contract (presets expanded), documented
// behaviours and behaviours by design reach Info; an unknown guarantee,
// or one behaviour with both labels, is a setup error naming it.
func TestInfoContract(t *testing.T) {
	c, err := startMode(t, "contract")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if want, _ := contract.Parse("executor,nothing-late"); c.Info.Contract.Guarantees.String() != want.String() {
		t.Errorf("contract %q, want %q (executor and nothing-late)", c.Info.Contract.Guarantees, want)
	}
	if got := c.Info.Contract.Label(contract.OpenAfterTurn); got != contract.LabelDocumented {
		t.Errorf("open-after-turn labelled %q, want %q (documented %v)", got, contract.LabelDocumented, c.Info.Contract.Documented)
	}
	if got := c.Info.Contract.Label(contract.ResultsAtStepEnd); got != contract.LabelByDesign {
		t.Errorf("results-at-step-end labelled %q, want %q (by design %v)", got, contract.LabelByDesign, c.Info.Contract.ByDesign)
	}
	_, err = startMode(t, "both-labels")
	if err == nil || !strings.Contains(err.Error(), `"open-after-turn" is declared both documented and by design`) {
		t.Errorf("a behaviour both documented and by design: error %v, want a setup error naming it", err)
	}
	_, err = startMode(t, "bad-contract")
	var ee *engineproto.EngineError
	if err == nil || !errors.As(err, &ee) || !ee.Setup || !strings.Contains(err.Error(), `init_ok contract: unknown guarantee "calls-frist"`) {
		t.Fatalf("bad contract: error %v, want a setup error naming the guarantee", err)
	}
}
