// Package catalog runs toolsim's built-in scenario catalog outside `go
// test`: the scenarios/*.txtar scripts and golden/*.golden renders the
// root package embeds, the scripts `make test` runs against the real
// binary (cmd/toolsim's TestScenarios), and what `toolsim` with no
// arguments and `toolsim catalog` run first.
//
// # How a run works
//
// [Run] writes the scenarios whose names match a filter to a temporary
// directory, with the goldens they compare with under its golden/
// ($GOLDEN points there), and runs them with testscript.RunT; the
// directory is removed at the end. Outside `go test` there is no toolsim
// binary to exec, so toolsim runs in-process: the caller passes it in as
// a [Command] (the CLI's own entry point; this package does not import
// the CLI), and each script's `exec toolsim` and `! exec toolsim` lines
// are rewritten, line for line, to run that command, so that a failure
// names the script's own line. Every other line of a script, and the
// files it archives, are kept as they are.
//
// # What a run prints
//
// Scenarios run in parallel, as `go test` runs them, a few at a time
// (twice GOMAXPROCS). When all have ended, each prints one line in name
// order: "ok    NAME", "skip  NAME: WHY", or "FAIL  NAME" followed by
// the script's log (its failing part, as `go test` prints it, indented,
// with the temporary directory cut from its paths) and the `go test`
// command that reproduces it with the real binary. A last line counts
// them: "75 scenarios: 75 passed, 0 failed". [Result.OK] says whether
// the run passed.
package catalog
