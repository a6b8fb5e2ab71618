package executor

import (
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// Options are the check options of an adapter whose timeline is the kit's
// [UI]: every call on its own row (UI groups nothing), the optional
// fields UI records (output and error), the features the library's UI
// supports, and its upstream's contract, contract.Executor or the part of
// it the library guarantees (contract.Executor.Without(...)), with the
// library's documented behaviours, if any (contract.Behaviour).
func Options(features sim.FeatureList, guarantees contract.List, documented ...contract.Behaviour) harness.Options {
	return harness.Options{
		NoGrouping: true,
		Fields:     []string{"output", "error"},
		Features:   features,
		Contract:   contract.Contract{Guarantees: guarantees, Documented: documented},
	}
}
