// Package engine is toolsim's reference live engine: it applies canonical
// events one at a time and keeps a [timeline.Timeline] up to date, as a live
// agent UI would. Its behaviour is SPEC §2; docs/timeline.md states every
// choice the spec leaves open.
//
// Invariants:
//   - Apply never panics and never fails: anomalies (unknown ids, late or
//     duplicate results, malformed progress payloads, ...) leave the timeline
//     unchanged, except as documented, and add a diagnostic.
//   - Results, progress and permission events find their tool by id through
//     an index, in O(1); never by position, name or "the last item".
//   - Terminal statuses never change; no tool is live after turn_end or
//     cancel.
//   - The engine's clock is the t of the last applied event, so the timeline
//     after a given prefix of a trace is always the same.
//
// An engine depends on the event and timeline packages only.
//
// The package example applies events and renders the timeline before and
// after the end-of-stream rule.
package engine
