// Package formats is the registry of trace importers: it knows every
// formats/<name> package, detects a file's format from its content, and
// includes the canonical toolsim format itself, so that commands can accept
// any supported file. The importers never import each other.
//
// Open is the one way to read a trace in any format: it detects (or is
// told) the format, streams a canonical trace, imports any other whole,
// and returns a Source with the header, the events and the importer's
// problems as data (docs/importers.md, "One input pipeline").
//
// Runnable examples: Open (read a trace and its problems), Detect (import
// an excerpt of a real log and print its events) and Names.
package formats
