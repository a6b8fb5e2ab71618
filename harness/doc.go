// Package harness tests an engine: it drives it over traces and checks the
// SPEC §5 oracles after every event. An engine is anything that implements
// [Engine] (Apply, Finish, Timeline); the reference engine (package engine)
// does, and [External] runs one written in any language over the
// toolsim-engine/1 protocol.
//
// What an engine author calls: [Fuzz] in a Go test (a seeded campaign that
// fails the test on the lowest failing seed, shrinks it, saves the
// regression and prints the command that reruns it); [Check] and
// [CheckCase] for one trace; [Campaign] for many seeds; and
// harnesstest.ReplayDir to keep the regressions passing. One [Options]
// value says what is checked and what the engine supports (fields,
// features, grouping), and travels unchanged through all of them.
//
// How a check works: a model of the trace (harness/internal/model), written
// independently of the reference engine, follows each event and knows
// which tools exist, in which state, grouped how, and which anomalies the
// trace holds. After each event a pass outlines the items that changed,
// in the model and in the engine, and hands the step to one small oracle
// per concern: the model (status, output, error, times), status moves,
// groups, nothing live after a turn, diagnostics, incremental rendering.
// Whole-trace oracles follow: determinism, order independence, the
// engine's own reload (Options.Reload) and, with Options.SelfCheck,
// toolsim's own persisted-log round trip.
//
// Invariants: the checks look only at events and timelines, never at an
// engine's internals; an engine that panics (or an external one that
// crashes, hangs or breaks the protocol) gives a violation, never a
// failure of the harness; the same trace and options give the same
// violations, and a campaign's report does not depend on its number of
// workers.
//
// Runnable examples: Check, CheckCase, Campaign (Fuzz is the same campaign
// in a test), External. examples/go-engine is a whole engine tested this
// way, in its own module.
package harness
