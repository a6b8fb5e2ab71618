// Package replay is toolsim replay's text player: it feeds a trace to an
// engine event by event and prints what a user would see — the final
// render (or the timeline JSON), optionally the render after every event
// (frames) — and, on the side, the engine's diagnostics and what was still
// open when the trace ended. play and watch print with it when their
// output is not a terminal.
package replay
