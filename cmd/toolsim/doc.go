// Command toolsim is a record/replay test harness and deterministic
// simulator for the part of an agent UI that turns tool-call events into
// what the user sees.
//
// Usage:
//
//	toolsim                     run the built-in scenarios, then a seeded campaign
//	toolsim replay FILE         render a trace (any supported format) through the reference engine
//	toolsim play FILE           step through a trace in the terminal
//	toolsim watch               show the live UI of a trace or agent output arriving on stdin
//	toolsim import FILE         convert an agent log into a canonical trace
//	toolsim record -- CMD       run an agent, pass its output through, capture it as a trace
//	toolsim redact FILE         replace secrets, e-mail addresses and home paths with placeholders
//	toolsim persist FILE        write the log a live app would have written, with faults
//	toolsim reconstruct LOG     rebuild and render the transcript from a persisted log
//	toolsim sim --seed N        print the trace the simulator generates for a seed
//	toolsim check FILE|DIR      run every oracle on traces
//	toolsim fuzz                run a seeded campaign (or every ordering); one finding per signature, each shrunk
//	toolsim merge REPORT...     combine the --json findings of fuzz shards, one per signature
//	toolsim shrink FILE         shrink a failing trace to a minimal regression scenario
//	toolsim view FILE           write a self-contained HTML page of a trace
//	toolsim version             print the module version and VCS revision
//	toolsim engine              serve the reference engine over toolsim-engine/1
//	toolsim catalog             run the built-in scenarios against their goldens
//	toolsim help [CMD]          list the commands, or one command's flags
//
// Each subcommand parses its own flag set and answers --help; flags may
// come before or after the file names. Every command's exit statuses are
// in docs/exit-status.md: 0 success, 1 a failed check or bad input, 2 a
// usage or setup error, 130 interrupted.
package main
