// Package rebuild is the reconstruction engine: it reads a persisted log
// (package store), puts its records back in event order, and rebuilds the
// timeline by feeding the reference engine — one timeline model and one
// renderer for both the live view and the reload (seed 004's "unified
// renderer").
//
// Order: by sequence number where records have them, else by parent links,
// else by timestamp with file order breaking ties. Retried (duplicate)
// records are dropped, a torn last line is dropped and reported, unanswered
// calls are resolved as the live engine resolves them at end of stream, and
// everything that could not be used is reported as a [Problem] with its
// line number — nothing in the log is silently ignored.
//
// Memory: when records carry dense sequence numbers (the usual case) the
// log is streamed through a reorder buffer, so memory follows the timeline
// and the reorder window, not the file. Logs without them are held whole to
// be sorted.
//
// [Replayed] rebuilds a log and, in the same reading, the log a writer
// leaves when it replays every record it wrote (toolsim's own idempotence
// check): the first result is a fork of the rebuild taken between the two
// copies.
//
// The Rebuild example reloads a log whose last record was torn.
package rebuild
