// Package view writes a trace as one self-contained HTML page: a swimlane
// timeline (one lane per tool call, coloured by final status, groups
// bracketed, progress ticks, cancels and turn ends as vertical lines,
// diagnostics as markers, sub-agent calls nested under their parent) beside
// the plain render, with a scrubber that shows the render after any event.
//
// The page needs no network: its script, styles and data are inline, and
// every string from the trace is shown as text (never as markup) after
// [Clean] made its control characters visible. Renders are stored as
// changes between events over a table of distinct lines, each line
// optionally coded as an edit of an earlier one, so a 100,000-event trace
// stays a few megabytes; the lanes are drawn only where they are visible.
//
// For a failed check the page also marks the failing event and shows the
// oracle, its (-want +got) diff and, for an engine other than the
// reference, the engine's render beside the reference render.
package view
