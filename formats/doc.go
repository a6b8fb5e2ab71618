// Package formats is the registry of trace importers: it knows every
// formats/<name> package, detects a file's format from its content, and
// includes the canonical toolsim format itself, so that commands can accept
// any supported file. The importers never import each other.
//
// Runnable examples: Detect (import an excerpt of a real log and print its
// events) and Names.
package formats
