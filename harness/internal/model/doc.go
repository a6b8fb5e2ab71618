// Package model is the harness's own account of what any engine must show
// after each event of a trace, written from SPEC §2 and the decisions that
// docs/timeline.md records where the spec is open. It shares no code with
// the reference engine (package engine), so a bug there is not repeated
// here.
//
// A [Model] follows a trace event by event ([Model.Apply], then
// [Model.Finish] for the end-of-stream rule). After each call it can say
// which top-level items changed ([Model.Changed]) and outline any of them
// as [Row] values; the harness outlines the engine's items the same way
// ([ItemRows]) and compares the two. Every change costs work proportional
// to what it touched: nothing scans the whole timeline except
// [Model.Rows] of every item, which the harness uses at checkpoints.
//
// Invariants: top-level items are only ever appended, never removed or
// moved, so an index names the same item for the whole trace; a tool's
// status never leaves a terminal status.
package model
