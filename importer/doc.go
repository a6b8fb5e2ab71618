// Package importer is the contract every format importer (formats/<name>)
// implements, and the small toolkit they share: a [Builder] that turns
// source records into canonical events with valid seq numbers and a
// non-decreasing trace clock, and the [Problem] list an import reports
// instead of dropping data.
//
// Importers depend on event and importer only; they never import each
// other. Package formats is the registry that knows them all.
//
// The Builder example shows the clock clamping and a reported problem.
package importer
