// Package shrink minimises failing traces by delta debugging.
//
// Given a trace for which a predicate reports a failure (an oracle that
// fires, an engine that panics), [Shrink] searches for a smaller trace that
// still fails: it removes chunks of events (largest first, as in ddmin),
// whole tools with their child tools, whole turns, all events of one kind
// and all progress of one tool, then simplifies what is left: it shortens
// strings, empties args and details, renames ids to short names, clears
// optional fields and swaps neighbours into a canonical order. The passes
// repeat until none of them makes progress, or until the test budget of
// [Options.MaxTests] is spent.
//
// Every candidate handed to the predicate is a valid trace: seq runs 1..n,
// t never decreases and every event passes [event.Validate] (provided the
// input events do). Candidates are fresh slices of value copies; the
// shrinker never writes into a slice or byte slice it has handed out, nor
// into the caller's input.
//
// Termination is guaranteed independently of the budget: a candidate is
// only tested when it is strictly smaller than the current trace under a
// fixed well-founded order (fewer events first, then, event by event, a
// smaller kind rank, fewer bytes of content, and a smaller id and parent).
// The search is deterministic: no randomness, no clock, no goroutines, and
// the passes run in a fixed order, so the same input and predicate give the
// same result.
package shrink
