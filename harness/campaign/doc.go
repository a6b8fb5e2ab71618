// Package campaign runs an engine over many generated traces and reports
// what it finds: a [Campaign] checks seeded scenarios (or every ordering,
// RunExhaustive) with package harness, groups the failures into findings
// by signature and the findings into bug classes ([ClassOf]), shrinks each
// finding inside its domain and the engine's contract, and compares them
// with a [Baseline] of known findings.
//
// An engine author calls [Fuzz] in a Go test: a seeded campaign that
// fails on every finding its baseline does not list, each shrunk and
// saved with the command that reruns it. [ShrinkCase] cuts a captured
// failing trace down to a minimal regression. A [Report] carries the
// findings, the coverage of faults and rules, and the oracles not run.
//
// The same seed and options give the same report, whatever the workers.
// docs/harness.md and docs/findings.md say more. Runnable examples:
// Campaign, ShrinkCase.
package campaign
