// Package claudecode holds what the two Claude Code importers (stream-json
// and persisted transcripts) share: the turn state machine and the reading
// of interrupt markers and permission rejections. It is not an importer;
// the importers use it and never import each other.
package claudecode
