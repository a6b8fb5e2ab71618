// Package engineproto is the toolsim-engine/1 protocol: how toolsim drives
// an engine written in any language over its standard input and output,
// one JSON object per line (docs/protocol.md, docs/protocol.schema.json).
//
// toolsim sends [Message]s: init, event, batch, finish, reset, render and
// reconstruct, each with an id. The engine answers each with exactly one
// [Reply] carrying the same id (a batch: one timeline reply per event, and
// one more when it asks for the end-of-stream rule). [Client] starts an
// engine process and speaks the protocol; it reports every way an engine
// can misbehave (crash, hang, malformed, extra or mismatched replies, a
// reset that changed nothing) as an [*EngineError] naming the engine, the
// message and the reason, and never leaves a zombie process behind.
//
// The Serve example shows a whole exchange on the wire; harness.External
// is the client side the harness uses.
package engineproto
