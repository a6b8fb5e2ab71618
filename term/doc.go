// Package term runs a program in a pseudo-terminal and reads its screen
// through a VT emulator, so that a test can drive a terminal app (a coding
// agent such as Codex CLI or Claude Code) the way a person does: type keys,
// read what the screen shows, wait for it to change.
//
// # Use
//
//	t, err := term.Start(term.Options{Path: "my-agent", Args: []string{"--flag"}})
//	if err != nil { ... }
//	defer t.Close()
//	if _, err := t.WaitText(regexp.MustCompile(`(?m)^> `), 30*time.Second); err != nil {
//		return err // a *WaitError: what was awaited, and the last screen
//	}
//	if err := t.Send("hello" + term.Enter); err != nil { ... }
//	s, err := t.Settle(0, time.Minute) // the screen once it stops changing
//	fmt.Println(s)                     // its text, row by row
//
// [Start] starts the program as the leader of a new session whose
// controlling terminal is the pty (so it leads a new process group too),
// in a screen of Options.Cols×Options.Rows (120×40 by default), with TERM
// set to xterm-256color unless Options.Env sets it. A goroutine feeds the
// program's output to a [github.com/charmbracelet/x/vt] emulator; another
// carries the emulator's replies to the program's queries (device
// attributes, cursor position, colours, modes) back to its input: apps
// that probe the terminal at start-up would stall without them. The
// emulator does not answer every query (not XTVERSION nor the kitty
// keyboard protocol's); apps that probe those follow with a device
// attributes query, which it answers, and fall back.
//
// [Term.Snapshot] returns the screen: its rows (trailing spaces trimmed),
// the styled rendering (ANSI), the cursor, and whether the alternate
// screen shows. [Term.Send] types keys (constants such as [Enter], [Esc],
// [Up]); [Term.SendEach] types them one write at a time with a gap, for
// an Esc that must not merge with the bytes after it; [Term.SendUntil]
// resends keys an app may drop while busy, until the screen shows they
// took. [Term.Resize] changes the screen size.
//
// # Waits
//
// Every wait takes a bound and none waits longer: [Term.WaitFor] (any
// condition on the screen), [Term.WaitText], [Term.WaitGone],
// [Term.Settle] and [Term.SendUntil]. Conditions are checked at once and
// again at each change of the screen, not by polling. A wait that fails
// returns a [*WaitError] naming what was awaited, why ([ErrTimeout],
// [ErrExited] with the exit status, [ErrClosed]) and the last screen, so a
// hang is reported with what the app showed. When the program exits, a
// wait checks the final screen once its output has been read (the pty
// ended, or the screen stayed unchanged for Options.Quiet, since a child
// left behind may hold the pty open) and fails if its condition does not
// hold there.
//
// # The settle rule
//
// A screen has settled when its text and styles stayed unchanged for a
// quiet interval (Options.Quiet, 200ms by default: longer than a
// spinner's frame, so a screen that still spins never settles), and
// [Term.Settle] fails if that does not happen within its bound. This is
// the one rule in toolsim that reads the wall clock to decide something:
// elsewhere time comes from traces, so that runs are reproducible. Here
// it cannot: a real app in a terminal tells nothing about being idle but
// its screen, and only the wall clock says a screen stopped changing.
// Prefer a condition on what the screen shows (WaitText) whenever the app
// shows one; settle only when nothing on the screen marks the end.
// (Timers also bound each wait and each write, and SendEach paces keys;
// those limit how long a call takes but decide nothing about the app.)
//
// # Close and the processes left behind
//
// [Term.Close] ends the program and what it started, so that no process
// outlives a test. On Linux it first scans /proc for the program's
// family: the processes of its process group and session, those holding
// the pty open, and their descendants by parent. It sends them SIGTERM
// and gives the program Options.Grace (500ms by default; negative skips
// SIGTERM) to exit, then sends SIGKILL to the process group and to the
// family, rescanning each time for processes forked meanwhile (up to five
// rounds; a process with a SIGKILL pending counts as gone). Then it
// reaps the program, closes the pty and stops the goroutines, each step
// bounded. Close is idempotent: a second call returns the first result.
//
// Limits: the family is found when Close runs, not while the program
// runs. A process that left the session (setsid), closed the pty and
// whose parent had already exited is out of reach: nothing links it to
// the program any more. Recorded processes are matched by pid and start
// time, so a reused pid is not killed. On other Unix systems, without
// /proc, Close reaches the process group and the program only. Windows has
// no pseudo-terminal here: Start returns an error wrapping
// errors.ErrUnsupported.
package term
