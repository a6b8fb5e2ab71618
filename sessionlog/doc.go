// Package sessionlog holds a real agent app's own session log to what
// toolsim sent it (issue 44's third item, docs/agents.md, The app's own
// session log). toolsim-agent acts a trace out at an app's model API, MCP
// tools and terminal; the app writes the conversation to its own log
// (Claude Code's project transcript, Codex's rollout, Gemini CLI's
// chat recording, opencode's session export). Compare imports that log
// with toolsim's importer for its format and replays both the log's
// events and the events toolsim sent through SPEC's reference engine; the
// calls must match: each call toolsim sent is in the log once, in the
// same order, in the same final state (ok, failed, interrupted, denied),
// and the log holds no call toolsim never sent.
//
// Calls are matched by the "call" argument toolsim gives every call it
// sends (its trace id), else by id: an app may rename a tool (Claude
// Code's mcp__server__tool) or give a call an id of its own (Gemini CLI,
// whose model API calls may carry none). A difference is a *Divergence;
// a log that does not import, or that the importer could only partly
// read, is one too, so that an importer's gap is a finding like the
// app's own: which side it lies on is said in the findings page.
package sessionlog
