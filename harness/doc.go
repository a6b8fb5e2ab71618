// Package harness tests an engine: it drives it over traces and checks the
// SPEC §5 oracles after every event. An [Engine] has Apply, Finish and
// Timeline; the reference engine (package engine) is one, and [External]
// runs one written in any language over toolsim-engine/1.
//
// An engine author calls [Fuzz] in a Go test (a seeded campaign that fails
// on every finding — a distinct [Violation.Signature] — its baseline does
// not list, each shrunk and saved, with the command that reruns it); [Check], [CheckWith] or [CheckCase] for one trace; [Campaign]
// for many seeds; harnesstest.ReplayDir to keep the regressions passing.
// One [Options] value says what is checked and what the engine supports,
// through all of them. [Violation.Oracle] is one of the Oracle constants.
//
// A model written independently of the reference engine follows each
// event, and one small oracle per concern compares what changed in model
// and engine; then come determinism, order independence, the engine's own
// reload (Options.Reload) and toolsim's own log round trip
// (Options.SelfCheck). The checks read only events and timelines; a panic,
// crash or protocol error is a violation, never a harness failure; the
// same trace and options give the same violations, whatever the workers.
// docs/harness.md says more.
//
// Runnable examples: Check, CheckCase, Campaign (Fuzz is the same campaign
// in a test), External; examples/go-engine is a whole engine in its own
// module.
package harness
