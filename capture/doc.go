// Package capture records an agent command's output as a trace: what
// `toolsim record` does.
//
// [Record] runs the command as the leader of its own process group, so
// that an interrupt and a kill reach everything it started (npx, a shell
// script and their children). Its standard output is passed through
// unchanged as it comes, and each line is stamped on arrival (by
// [Options.Now], or 1 ms apart with [Options.SyntheticClock]) and kept in
// DIR/capture.raw, redacted line by line unless [Options.NoRedact]; a line
// over the importer's line limit is passed through but kept as an empty
// line. The arrival stamps go to DIR/capture.stamps, one JSON object a
// line ({"line":N,"t":MS}).
//
// Interrupts read from [Options.Signals] are passed on to the group: the
// first as it came (the agent may stop cleanly), killing the group if the
// agent has not exited 5s later; a second one kills the group at once.
// What the agent leaves running when it exits is killed, and its output
// is read for at most 2s more. [Options.Notice] is told of each kill and
// of output left unread.
//
// [Recording.Import] imports capture.raw with its stamps (an empty
// capture gives a trace with just a header) and redacts the trace with
// the redactor of the lines; [Trace.Write] writes it to DIR/trace.jsonl.
// [Recording.Status] maps the agent's exit to a shell's exit status.
package capture
