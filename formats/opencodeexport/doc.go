// Package opencodeexport imports an opencode session as `opencode export
// SESSION_ID` prints it (opencode-ai 1.18.33): one JSON object, the
// session's `info` and its `messages`, each `{info, parts}`, the objects
// opencode keeps in its SQLite database.
//
// opencode 1.18.33 persists sessions in one SQLite database
// ($XDG_DATA_HOME/opencode/opencode.db, WAL mode); the JSON files under
// storage/ are the layout before 1.2.0, read only once to migrate them.
// The export is the stable, documented way to read a session without a
// SQLite driver, and the format this importer reads
// (docs/importers.md, "opencode sessions").
//
// The mapping:
//
//   - a user message: turn_start (user), user (its text parts not marked
//     synthetic), turn_end;
//   - the assistant messages answering it (parentID), one per model step:
//     one assistant turn; text parts become text, reasoning thinking, each
//     tool part a tool_start at state.time.start, batched by its message,
//     with its input as args;
//   - a tool part's end: completed is tool_done ok with its output, error
//     is tool_done failed with its error, at state.time.end. A call opencode
//     marked interrupted (metadata.interrupted) in a message that ended with
//     MessageAbortedError was cut by the user's cancel: no tool_done, the
//     message's end is a cancel (the cancel interrupts it). An interrupted
//     call in a message without that error was cut by the stream's end
//     (anomalyco/opencode#44254): it stays a failure, as opencode records it;
//   - a message's other error: an error event with its message;
//   - the turn ends after a message that finished other than with
//     "tool-calls", or after its cancel. A message with neither a finish
//     nor a completion time was in flight when opencode died: its turn stays
//     open, even when the user speaks again (an importer never ends a turn
//     the source did not end), and a pending or running call in it gets no
//     end.
//
// Events are ordered by their time (milliseconds since the epoch, relative
// to the first), ties kept in the export's order. An export that ends too
// soon (a file still being written, as `toolsim watch` reads one) gives
// the messages before the cut and a problem naming its line; a message or
// tool part without a time is placed after what came before it, with a
// problem.
//
// What the export cannot say: progress (opencode ignores MCP progress),
// the order of events that share a millisecond, and the earlier name of a
// call whose id a later call reused in the same step (opencode renames the
// part; its database's event table keeps the history, the export does
// not).
package opencodeexport
