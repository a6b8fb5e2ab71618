// Package tui is toolsim's terminal player: a styled layer over the plain
// renderer, and the Bubble Tea model behind `toolsim play` and
// `toolsim watch`.
//
// The styled layer ([Render], [Styles]) colours the lines of
// [render.Render] by what they show — a tool's status, dim thinking, the
// group header while it runs — without changing a character. With a colour
// profile of ASCII or less (NO_COLOR, output that is not a terminal) it is
// the plain render, byte for byte.
//
// The [Model] shows three panes: the timeline as it looked after the
// current event, the trace with that event highlighted (its JSON on
// demand), and what went wrong at that step: the engine's diagnostics and
// the step-local oracles (the harness's rules, from package oracle,
// applied to what the event changed). Frames are
// computed on demand by a [Store] from checkpoints, so a trace of a
// million events opens at once.
//
// Invariants:
//   - Every frame is a pure function of the trace prefix, the layout and the
//     colour profile: spinner frames come from the trace clock, and
//     playback time is driven by messages ([TickMsg]), never read from a
//     wall clock.
//   - With colours stripped, the timeline pane holds the plain render's
//     lines (running tools' ▶ animated as a spinner).
//
// The Render example shows the styled layer over the plain render.
package tui
