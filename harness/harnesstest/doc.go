// Package harnesstest keeps a directory of regression traces passing in a
// Go test: [ReplayDir] checks each trace with every oracle of package
// harness, under the options the engine is fuzzed with, and compares its
// final render with a golden file.
//
// A failure campaign.Fuzz found and shrank becomes a regression by moving
// its .min.jsonl into the directory. The package registers no flags:
// goldens are rewritten with TOOLSIM_UPDATE=1, so it can be imported beside
// libraries that define their own -update. See the ReplayDir example, and
// examples/go-engine for a directory in use.
package harnesstest
