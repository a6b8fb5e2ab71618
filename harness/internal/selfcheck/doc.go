// Package selfcheck holds toolsim's own reconstruction oracles (SPEC §4,
// §5.7): the reference engine's timeline survives toolsim's persisted-log
// writer (package store) and rebuild (package rebuild) under log faults.
// They test toolsim, not a user's engine: harness runs them with
// Options.SelfCheck, and toolsim replay --check-reconstruct uses Rebuild.
//
// Diff and Equal compare timelines up to the differences a rebuild is
// allowed (Normalize, docs/persisted-log.md).
package selfcheck
