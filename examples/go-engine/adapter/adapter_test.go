package adapter_test

import (
	"testing"

	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/harnesstest"

	"github.com/toolsim/toolsim/examples/go-engine/adapter"
)

// TestFuzz runs a seeded campaign with every fault of the simulator. On a
// failure it prints the violation and the shrunk trace, saves both under
// testdata/toolsim/TestFuzz/, and prints the command that reruns the seed.
func TestFuzz(t *testing.T) {
	campaign.Fuzz(t, adapter.New, campaign.Seeds(300), campaign.WithOptions(adapter.Options))
}

// TestRegressions replays every trace of testdata/regressions with every
// oracle and compares its final render with the golden beside it
// (TOOLSIM_UPDATE=1 go test ./... rewrites them).
func TestRegressions(t *testing.T) {
	harnesstest.ReplayDir(t, "testdata/regressions", adapter.New, adapter.Options)
}
