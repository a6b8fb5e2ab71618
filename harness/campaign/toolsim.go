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

// screen takes toolsim's own faults out of what a check found, keeping
// the one of the lowest seed index (i; -1 for a baseline's repro) for the
// run's error: nothing when the first violation is toolsim's (what
// followed it is not the engine's to answer for), else the others.
func (r *run) screen(i int64, seed uint64, found []harness.Violation) []harness.Violation {
	kept := withoutToolsim(found)
	if len(kept) == len(found) {
		return found
	}
	for _, v := range found {
		if v.Oracle == harness.OracleToolsim {
			r.mu.Lock()
			if r.fault == nil || i < r.faultSeed {
				r.fault, r.faultSeed = &ToolsimError{Seed: seed, Detail: v.Detail}, i
			}
			r.mu.Unlock()
			break
		}
	}
	if found[0].Oracle == harness.OracleToolsim {
		return nil
	}
	return kept
}

// withoutToolsim drops toolsim's own faults from found: a check that
// only confirms, shrinks or regenerates a finding never counts one.
func withoutToolsim(found []harness.Violation) []harness.Violation {
	var out []harness.Violation
	for _, v := range found {
		if v.Oracle != harness.OracleToolsim {
			out = append(out, v)
		}
	}
	if len(out) == len(found) {
		return found
	}
	return out
}

// checkCase checks a case as harness.CheckCase does, without toolsim's
// own faults.
func checkCase(newEngine func() harness.Engine, c *harness.Case, opts harness.Options) []harness.Violation {
	return withoutToolsim(harness.CheckCase(newEngine, c, opts))
}
