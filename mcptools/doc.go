// Package mcptools is the MCP server toolsim offers a real agent app (Codex
// CLI, Gemini CLI, Claude Code, opencode) as its tools. Every tool call
// blocks until the test's controller says how it ends, so toolsim, not a
// real tool, decides when and how each call finishes.
//
// # Serving
//
// New starts a Server on 127.0.0.1 at a free port; URL gives the endpoint,
// http://127.0.0.1:PORT/mcp, to put in the app's MCP configuration. It speaks
// MCP over streamable HTTP through the official go-sdk (v1.8.0) with the
// SDK's defaults: stateful sessions (the server issues Mcp-Session-Id at
// initialize and the client sends it back), responses as server-sent event
// streams, a standalone GET stream. Those defaults are what the four apps'
// MCP clients expect, so none is changed. (The SDK's own client first
// tries the stateless server/discover of protocol 2026-07-28; a stateful
// server refuses it and the client falls back to initialize, as the log
// shows.)
//
// # Tools
//
// The tools are Options.Tools, by default DefaultTools: grep, read, bash,
// glob, edit_file, web_fetch, todowrite, named after toolsim's simulator
// vocabulary. Each has a one-line neutral description and the same input
// schema: an object whose string member "call" is required and whose other
// members are free (additionalProperties true):
//
//	{"type":"object","properties":{"call":{"type":"string",...}},
//	 "required":["call"],"additionalProperties":true}
//
// "call" is toolsim's call id: the scripted model puts it in the arguments
// so that the app's screen shows which call is which; it is Call.CallArg.
// The tools carry no annotations (no readOnlyHint, destructiveHint, ...):
// a hint would change whether an app asks the user before a call, and that
// is set per app by whoever starts it, not here. Without hints MCP's
// defaults apply (not read-only, possibly destructive, open world).
//
// # Calls and their JSON-RPC ids
//
// A tools/call becomes a *Call that blocks its SDK handler. The controller
// gets calls with Next (the oldest not yet returned, waiting up to a
// timeout; ErrTimeout when none comes), Calls (all since the last Reset, in
// arrival order) or Lookup(session, id). Call.ID is the request's JSON-RPC
// id in its JSON form: a number as decimal digits (7), a string quoted
// ("req-7"); NumberID and StringID build it. Ids are unique per session
// only, so Lookup takes the session (Call.Session, the Mcp-Session-Id) too.
//
// Calls are told apart by JSON-RPC id, never by tool name or arguments: a
// call leaked from a cancelled turn keeps its own id, so a release meant
// for a new call of the same tool cannot reach it. The go-sdk v1.8.0 does
// not give a handler its request's id: it stores it in the context under
// the unexported key idContextKey (mcp/streamable.go:1188, set at
// mcp/server.go:2010) for its own routing, and neither CallToolRequest,
// RequestExtra (mcp/shared.go:631) nor receiving middleware (which sees the
// method and the decoded request only, mcp/shared.go:206-220) carries it;
// go-sdk issue #1264 asks for an accessor. Matching at a wrapping Transport
// would be a guess, since the SDK dispatches calls asynchronously. So the
// HTTP layer reads it: before the SDK sees a POST body, a wrapping handler
// decodes each message (one or a batch) with the SDK's own decoder
// (jsonrpc.DecodeMessage, so ids mean exactly what they mean to the SDK)
// and writes the id of every tools/call into its params._meta under
// "dev.toolsim/jsonrpc-id" (overwriting any the client sent), then hands
// the SDK the rewritten body. The tool handler reads the id back from
// CallToolParamsRaw.Meta: it rides in the very params the handler gets. A
// body that does not decode goes to the SDK unchanged, for it to reject; a
// tools/call whose handler finds no stamped id fails with a JSON-RPC error.
//
// # Releasing: outcomes and progress
//
// Call.Finish(Outcome{OK, Text}) ends the call: the result has one text
// content, Text, and isError set when !OK. A call nobody releases runs
// until the client cancels it or the server resets or closes: there is no
// timeout. Call.Progress(progress, total, message) sends
// notifications/progress with the progress token the client sent in
// _meta.progressToken (Call.ProgressToken), on the call's own response
// stream; it fails with ErrNoProgressToken when the client sent none. A
// Progress is written before it returns, so a later Finish's result follows
// it on the wire. Finish and Progress on a call that has ended fail with a
// typed error, never a panic: ErrFinished (Finish came first), ErrCancelled
// (a cancel notification named it), ErrDropped (its HTTP request or handler
// context ended), ErrReset, ErrClosed.
//
// # Cancels and dropped calls
//
// Every notifications/cancelled is recorded as a Cancel (session, request
// id, reason, the Call it names or nil when the id names no call of that
// session since the last Reset, and whether the controller had not
// released the call yet): Cancels lists them, NextCancel waits for the next.
// The named call turns Cancelled with its CancelReason and, if still
// blocked, ends. The SDK cancels the handler's context as soon as the
// notification is read, and hands the notification to middleware just
// after; the handler treats a context ended with no cause of its own as
// that cancel (in v1.8.0 only the cancel notification does that:
// mcp/transport.go:269, internal/jsonrpc2/conn.go:461), so Cancelled can
// turn true a moment before the Cancel record appears.
//
// A call is Dropped when it ends because the client's HTTP request for it
// went away (the wrapping handler keeps each call's request context) or its
// handler context ended otherwise (the session closed, a broken
// connection), with DropCause saying which. Clients that cancel often abort
// the HTTP request first and send the notification after (the go-sdk
// client does), so such a call is Dropped and then, once the notification
// arrives, Cancelled too; a call Dropped and never Cancelled is one the
// client abandoned silently.
//
// # Reset and Close
//
// Reset starts a new scenario: each call still blocked is released as
// failed with text "toolsim: scenario reset", marked Leaked and returned;
// Reset waits until their handlers have returned, then forgets every call
// and cancel and empties the Next and NextCancel queues. Close does the
// same with text "toolsim: server closed" (those calls end with ErrClosed),
// waits for every tool handler to return, closes the listener, the HTTP
// connections and the MCP sessions, and returns the calls it released;
// afterwards Next and NextCancel fail with ErrClosed and a new tools/call
// is refused.
//
// # Log
//
// Options.Log gets one line per message POSTed (method and id), per
// middleware dispatch, per call event (arrival with its arguments,
// progress, finish, cancel, drop, reset, close), and the SDK's own log
// records, without timestamps.
package mcptools
