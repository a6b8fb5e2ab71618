package campaign

import (
	"fmt"

	"github.com/toolsim/toolsim/harness"
)

// ToolsimError is the error of a campaign that met toolsim's own fault
// (harness.ToolsimFault) at a seed: the simulator generated the seed two
// ways, the renderer drew one timeline two ways, or the executor kit took
// a timeline before its library settled. What that seed showed is not
// counted against the engine; the rest of the report stands.
type ToolsimError struct {
	Seed   uint64
	Detail string // the violation's detail, which names the part
}

// Error names the seed and the fault.
func (e *ToolsimError) Error() string {
	return fmt.Sprintf("seed %d: %s", e.Seed, e.Detail)
}

// toolsimFault keeps, when found holds toolsim's own fault, the one of
// the lowest seed index, and reports whether it did.
func (r *run) toolsimFault(i int64, seed uint64, found []harness.Violation) bool {
	for _, v := range found {
		if v.Oracle != harness.OracleToolsim {
			continue
		}
		r.mu.Lock()
		if r.fault == nil || i < r.faultSeed {
			r.fault, r.faultSeed = &ToolsimError{Seed: seed, Detail: v.Detail}, i
		}
		r.mu.Unlock()
		return true
	}
	return false
}
