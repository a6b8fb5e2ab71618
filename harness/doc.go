// Package harness checks an engine on one trace: it drives it event by
// event and checks the SPEC §5 oracles after every event. An [Engine] has
// Apply, Finish and Timeline; the reference engine (package engine) is
// one, and [External] runs one written in any language over
// toolsim-engine/1.
//
// [Check], [CheckWith] or [CheckCase] check one trace (a [Case] adds the
// log faults and reconnect point of the reconstruction oracles);
// [CheckSource] checks a stream too long to hold; a [Stepper] checks an
// engine the caller drives. One [Options] value says what is checked and
// what the engine supports. Every [Violation] names its oracle (one of the
// Oracle constants), the event after which it failed, and its signature:
// the rule and the kind of difference, which two failures of one bug
// share.
//
// A model written independently of the reference engine follows each
// event, and one small oracle per concern compares what changed in model
// and engine; then come determinism, order independence, the engine's own
// reload (Options.Reload) and toolsim's own log round trip
// (Options.SelfCheck). The checks read only events and timelines; a panic,
// crash or protocol error is a violation, never a harness failure; the
// same trace and options give the same violations.
//
// Many seeds, findings, baselines and shrinking are package campaign's;
// harnesstest.ReplayDir keeps saved regressions passing. docs/harness.md
// says more. Runnable examples: Check, CheckCase, External;
// examples/go-engine is a whole engine in its own module.
package harness
