package harness

import (
	"errors"
	"fmt"
)

// OracleToolsim is the oracle name of a violation that is toolsim's own
// fault, not the engine's (ToolsimFault): it is never a finding. A
// campaign that meets one stops counting that seed and returns the fault
// as its error.
const OracleToolsim = "toolsim"

// ToolsimFault is an error of toolsim's own making met while checking an
// engine: the simulator generated one seed two ways, the renderer drew one
// timeline two ways, or the executor kit took a timeline before the
// library it drives had settled. An engine whose Err wraps one (the kit's
// engine does) fails the check with OracleToolsim, not with an engine
// violation.
type ToolsimFault struct {
	Part   string // which part of toolsim: "simulator", "renderer", "executor kit"
	Detail string // what it did twice two ways, or what it missed
}

// Error names the part and says whose the bug is.
func (f *ToolsimFault) Error() string {
	return fmt.Sprintf("toolsim's own fault (%s), not the engine's: %s; this is a bug in toolsim, please report it", f.Part, f.Detail)
}

// toolsimFault reports whether err is, or wraps, a ToolsimFault.
func toolsimFault(err error) (*ToolsimFault, bool) {
	var f *ToolsimFault
	return f, errors.As(err, &f)
}

// failedWith is the violation of an engine that failed with err while
// replaying again (detail says what for): OracleEngine, or OracleToolsim
// when err is toolsim's own fault.
func failedWith(seq int64, detail string, err error) Violation {
	if _, ok := toolsimFault(err); ok {
		return Violation{Seq: seq, Oracle: OracleToolsim, Detail: detail + err.Error()}
	}
	return Violation{Seq: seq, Oracle: OracleEngine, Detail: detail + err.Error()}
}
