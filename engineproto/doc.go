// Package engineproto is the toolsim-engine/1 protocol: how toolsim drives
// an engine written in any language over its standard input and output,
// one JSON object per line (docs/protocol.md, docs/protocol.schema.json).
//
// toolsim sends [Message]s: init, event, batch, finish, reset, render,
// reconstruct and snapshot, each with an id. The engine answers each with exactly one
// [Reply] carrying the same id (a batch: one timeline reply per event, and
// one more when it asks for the end-of-stream rule). [Client] starts an
// engine process and speaks the protocol; it reports every way an engine
// can misbehave (crash, hang, malformed, extra or mismatched replies, a
// reset that changed nothing) as an [*EngineError] naming the engine, the
// message and the reason, and never leaves a zombie process behind.
//
// An engine that declares the "delta" capability may answer with only the
// items that changed; the Client applies them. Every timeline a Client
// returns is a new *timeline.Timeline, but items that did not change are
// shared with the previous one, and every item has a nonzero Version,
// unique within the Client, that changes exactly when the item changed:
// callers may skip unchanged items by pointer and version, and must treat
// returned timelines as read-only. An engine that also declares
// "snapshot" sends its whole timeline on request ([Client.Snapshot]), so
// that an item it changed without sending it can be caught. [Serve] is the
// engine side (`toolsim engine`); it answers with deltas unless told
// otherwise.
//
// The Serve example shows a whole exchange on the wire; harness.External
// is the client side the harness uses.
package engineproto
