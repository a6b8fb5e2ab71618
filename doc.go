// Package toolsim holds toolsim's built-in scenario catalog: the testscript
// scenarios of scenarios/ and the golden renders of golden/, embedded so the
// toolsim command can check them without the source tree.
//
// The tool itself is the toolsim command (cmd/toolsim). To test an engine
// from Go, start with package harness (Fuzz, Check) and harness/harnesstest
// (ReplayDir); the engine's inputs and outputs are event (the trace format)
// and timeline (the view model and its JSON contract); engine is the
// reference engine, render the plain-text renderer, engineproto the
// protocol for engines in other languages. examples/go-engine is a complete
// engine tested this way. api/toolsim.txt lists the public API.
package toolsim
