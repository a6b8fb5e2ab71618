// Command toolsim replays tool-call traces through the reference engine and
// renderer, and checks its built-in scenario catalog against its goldens.
//
// Usage:
//
//	toolsim                      run the built-in scenario catalog
//	toolsim replay [flags] FILE  render a trace (- reads stdin)
//	toolsim help                 list the commands
//
// Each subcommand parses its own flag set and answers --help. Exit status:
// 0 success, 1 an invalid trace or a failed check, 2 a usage error.
package main
