// Package harness drives engines over traces and checks the SPEC §5 oracles
// against what they produce. An engine is anything that implements
// [Engine]; the reference engine (package engine) does, and so can yours.
//
// The checks look only at timelines and events — never at an engine's
// internals — so the same oracles judge the reference engine and any other.
// This package holds the oracles that need no model of the trace (status
// moves, every tool shown once, nothing live after a turn ends, group
// shape, incremental rendering, determinism); the simulator builds the
// model-based ones on top.
package harness
