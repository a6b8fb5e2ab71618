// Package harnesstest replays a directory of traces through an engine in a
// Go test: every oracle of package harness under the options the engine is
// fuzzed with, and the final render compared with a golden file.
//
// It registers no flags: goldens are rewritten with TOOLSIM_UPDATE=1, so
// it can be imported beside libraries that define their own -update.
package harnesstest
