// Package agent drives a real agent app — Codex CLI, Gemini CLI, Claude
// Code, opencode — as a toolsim engine, black-box, at the three
// boundaries a user's app has: toolsim serves its model API (package
// modelapi), serves its tools over MCP (package mcptools) and reads its
// terminal (package term). Nothing of toolsim's making sits in between:
// the engine under test is the whole app. cmd/toolsim-agent serves it
// over toolsim-engine/1, one app per process, scenario after scenario
// through the app's new-session command.
//
// # The mapping
//
// Each event of a trace is acted out at a boundary:
//
//   - a run of tool_start events is one model response carrying those
//     calls, each to the MCP tool of its name with the arguments
//     {"call": ID}, so the screen shows the call's id;
//   - tool_done is the MCP call returning (isError when it failed),
//     released by the call's JSON-RPC id; tool_progress is an MCP progress
//     notification;
//   - a cancel is the app's own cancel key;
//   - an assistant turn's turn_end is the model's final answer; a turn
//     opens with a typed prompt when the app needs one to ask the model.
//
// User turns, text, thinking, permissions, errors, sub-agents and meta
// tools are not acted out: a profile declares the features it drives, so
// campaigns generate only those.
//
// # Reading the screen
//
// A Profile's screen reader turns the terminal's text into tool rows
// (call id, tool name, status) the way a user reads them: the row's own
// words and marks, never the app's files. The engine declares the
// screen capability (the screen oracles judge the rows) and tool-rows
// (the reader reads no text, notices or separators, so the model
// compares the calls alone). An app shows a model response's calls at
// once, so after the first start of a run the timeline leaves out the
// calls the run starts later, until their events come.
//
// # The settle rule
//
// A real app has no settle hook, so this is where toolsim waits on the
// wall clock, every wait bounded (Timing): after an event that reaches
// the app, the engine waits up to Patience for the rows SPEC expects
// (its reference engine's, used for nothing else), then until the rows
// stayed unchanged for Quiet, and reads what the screen then shows,
// expected or not. A run of progress events is read once, after its
// last, and a later start of a model response only when the last read
// showed no row for it. A screen still changing after Settle, an app that
// exited, or one that sends no model request when it must is an engine
// failure with the last screen attached.
//
// # Oracles at the boundary
//
// Besides the screen oracles, two checks see what the app sends, and
// report a BoundaryError as the engine's failure: the request oracle
// (every tool result reaches the model once, paired with its own call,
// with what the tool returned) and the MCP oracle (every call running at
// a cancel gets notifications/cancelled). With Options.Resume a third,
// the resume oracle, quits the app at each scenario's end with its own
// quit command and resumes it (App.Restart): the resumed rows must be the
// live ones (docs/agents.md, After resume).
package agent
