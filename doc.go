// Package toolsim holds toolsim's built-in scenario catalog: the testscript
// scenarios of scenarios/ and the golden renders of golden/, embedded so the
// toolsim command can check them without the source tree.
//
// The tool itself is the toolsim command (cmd/toolsim); the libraries are
// event (the trace format), engine (the reference live engine), timeline (the
// view model and its JSON contract) and render (the plain-text renderer).
package toolsim
