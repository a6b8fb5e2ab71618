package harnesstest_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/harnesstest"
)

// TestRegressions keeps every trace in testdata/regressions passing: each
// NAME.jsonl is checked with every oracle under the options the engine is
// fuzzed with, and its final render compared with golden/NAME.golden.
// Write the goldens with TOOLSIM_UPDATE=1 go test, then read them.
// A failure campaign.Fuzz saved (testdata/toolsim/TEST/seed-N.min.jsonl)
// becomes a regression by moving it into the directory.
func testRegressions(t *testing.T) {
	newEngine := func() harness.Engine { return engine.New(engine.Options{}) }
	harnesstest.ReplayDir(t, "testdata/regressions", newEngine, harness.Options{})
}

// In your engine's package, name the function TestRegressions: a test
// runs under go test. (An example cannot take a *testing.T, so this one is
// compiled, not run.)
func ExampleReplayDir() {
	_ = testRegressions
}
