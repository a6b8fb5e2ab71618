// Package store is the persisted log a live agent UI appends to as events
// arrive, and from which it rebuilds the transcript on reload (seed 004,
// SPEC §4). It defines the log's records, a [Writer] that turns canonical
// events into records the way a live application does, and the persistence
// fault model: the log faults of package fault (fault.Log), seedable, that
// reproduce how real logs break.
// Reading a log back and rebuilding a timeline is package rebuild.
//
// The format is documented in docs/persisted-log.md.
package store
