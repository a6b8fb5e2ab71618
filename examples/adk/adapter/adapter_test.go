package adapter_test

import (
	"testing"

	"github.com/toolsim/toolsim/executor"

	"github.com/toolsim/toolsim/examples/adk/adapter"
)

// TestADK runs the campaign (subtest campaign: one failing subtest per bug
// class the baseline does not list) and the regressions kept under
// scenarios/adk (subtest regressions: each must still fail as the baseline
// says).
func TestADK(t *testing.T) {
	executor.Suite{
		New:         adapter.New,
		Options:     adapter.Options,
		Seeds:       300,
		Baseline:    "../../../scenarios/adk/baseline.json",
		Regressions: "../../../scenarios/adk",
	}.Run(t)
}
