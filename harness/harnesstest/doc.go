// Package harnesstest replays a directory of traces through an engine in a
// Go test: every oracle of package harness, and the final render compared
// with a golden file.
//
// It is a package of its own because goldie, which keeps the goldens,
// registers the global -update flag when imported: package harness stays
// free of global flags, so it can be imported beside other libraries that
// register -update (teatest does).
package harnesstest
