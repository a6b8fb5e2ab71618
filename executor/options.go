package executor

import (
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// Options are the check options of an adapter whose timeline is the kit's
// [UI]: every call on its own row (UI groups nothing), the optional
// fields UI records (output and error), the features the library's UI
// supports, and its upstream's contract c: contract.Executor or the part
// of it the library guarantees (contract.Executor.Without(...)), with the
// library's behaviours declared documented or by design, if any.
func Options(features sim.FeatureList, c contract.Contract) harness.Options {
	return harness.Options{
		NoGrouping: true,
		Fields:     []string{"output", "error"},
		Features:   features,
		Contract:   c,
	}
}
