package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/toolsim/toolsim/harness"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // invalid input or a failed check
	exitUsage = 2 // bad flags or arguments
	// exitToolsim is toolsim's own fault (campaign.ToolsimError): a bug in
	// toolsim met while checking, never a finding of the engine.
	exitToolsim = 3

	exitInterrupted = 130 // stopped by Ctrl-C (128 + SIGINT, as shells report)
)

// cli holds what a command may touch, so tests and the catalog can run
// commands in-process.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	open           func(name string) (io.ReadCloser, error)
	// newEngine makes the engine that check, fuzz and shrink drive; nil
	// means the reference engine.
	newEngine func() harness.Engine
	// checkOpts are the oracle options for that engine (declared fields,
	// --diff's reference).
	checkOpts harness.Options
	// selfCheckAll runs toolsim's own persisted-log oracles on every trace,
	// not only on the ones toolsim generated.
	selfCheckAll bool
	// robustness counts failures outside the engine's contract
	// (--robustness); without it check sets them apart.
	robustness bool
	// self is how the user runs toolsim ($TOOLSIM_COMMAND; see me).
	self string
	// engineArgs are the --engine flags to repeat in reproduce commands.
	engineArgs string
	// now reads the wall clock for record's arrival stamps; nil means
	// time.Now (the tests set a fake one).
	now func() time.Time
	// warned holds the reader warnings already printed (see warn).
	warned map[string]bool
}

// clock returns the cli's wall clock.
func (c *cli) clock() func() time.Time {
	if c.now != nil {
		return c.now
	}
	return time.Now
}

// engine returns the engine constructor the checking commands use.
func (c *cli) engine() func() harness.Engine {
	if c.newEngine != nil {
		return c.newEngine
	}
	return referenceEngine
}

func main() {
	code := osCLI().run(os.Args[1:])
	if interrupting.Load() {
		select {} // the signal's handler exits with 130 once the engine is killed
	}
	os.Exit(code)
}

func osCLI() *cli {
	return &cli{
		stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr,
		open: func(name string) (io.ReadCloser, error) { return os.Open(name) },
		self: os.Getenv("TOOLSIM_COMMAND"),
	}
}

// me is how the user runs toolsim, for the commands it prints
// (reproduce: …): $TOOLSIM_COMMAND, which the npm launcher and the
// vitest helper set to "npx toolsim", else toolsim.
func (c *cli) me() string {
	if c.self != "" {
		return c.self
	}
	return "toolsim"
}

// command is one subcommand.
type command struct {
	name, summary string
	run           func(c *cli, args []string) int
}

func commands() []command {
	return []command{
		{"replay", "render a trace (any supported format) through the reference engine", (*cli).replay},
		{"play", "step through a trace in the terminal: timeline, events, diagnostics", (*cli).play},
		{"watch", "show the live UI of a trace or agent output arriving on stdin", (*cli).watch},
		{"import", "convert an agent log into a canonical trace", (*cli).importCmd},
		{"record", "run an agent, pass its output through, and capture it as a trace", (*cli).record},
		{"redact", "replace secrets, e-mail addresses and home paths in a trace with stable placeholders", (*cli).redactCmd},
		{"persist", "write the log a live app would have written for a trace, with faults", (*cli).persist},
		{"reconstruct", "rebuild and render the transcript from a persisted log", (*cli).reconstruct},
		{"sim", "print the trace the simulator generates for a seed", (*cli).sim},
		{"check", "run every oracle on traces (files or directories)", (*cli).check},
		{"fuzz", "run a seeded campaign (or every ordering) with every oracle; shrink failures", (*cli).fuzz},
		{"merge", "combine the --json findings of fuzz shards into one report, one finding per signature", (*cli).merge},
		{"shrink", "shrink a failing trace to a minimal regression scenario", (*cli).shrink},
		{"view", "write a self-contained HTML page of a trace: swimlanes, render, scrubber", (*cli).view},
		{"version", "print the module version and VCS revision", (*cli).version},
		{"engine", "serve the reference engine over the toolsim-engine/1 protocol (stdin/stdout)", (*cli).engineCmd},
		{"catalog", "run the built-in scenarios against their goldens (the default)", (*cli).catalog},
		{"help", "list the commands", (*cli).help},
	}
}

func (c *cli) run(args []string) int {
	if len(args) == 0 {
		return c.defaultRun()
	}
	switch args[0] {
	case "-h", "-help", "--help":
		return c.help(nil)
	case "-version", "--version":
		return c.version(args[1:])
	}
	for _, cmd := range commands() {
		if cmd.name == args[0] {
			return cmd.run(c, args[1:])
		}
	}
	fmt.Fprintf(c.stderr, "toolsim: unknown command %q\n", args[0])
	c.usage(c.stderr)
	return exitUsage
}

// defaultRun is toolsim's main job on its built-in scenarios: the golden
// catalog, then a 2,000-seed swarm campaign with every fault and oracle.
func (c *cli) defaultRun() int {
	code := c.catalog(nil)
	fmt.Fprintln(c.stdout, "\nswarm campaign: 2000 seeds, every fault, every oracle")
	return max(code, c.fuzz([]string{"--seeds", "2000"}))
}

// help lists the commands, or prints one command's help (help replay).
func (c *cli) help(args []string) int {
	if len(args) == 1 && args[0] != "help" {
		for _, cmd := range commands() {
			if cmd.name == args[0] {
				return cmd.run(c, []string{"--help"})
			}
		}
		fmt.Fprintf(c.stderr, "toolsim help: unknown command %q\n", args[0])
		c.usage(c.stderr)
		return exitUsage
	}
	c.usage(c.stdout)
	return exitOK
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprintln(w, "usage: toolsim [command] [flags] [args]")
	fmt.Fprintln(w, "\nWith no command, toolsim runs its built-in scenario catalog, then a\n2,000-seed swarm campaign with every fault and oracle.\n\nCommands:")
	for _, cmd := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintln(w, "\nRun 'toolsim COMMAND --help' for a command's flags.")
}

// openInput opens a named input; "-" is standard input.
func (c *cli) openInput(name string) (io.ReadCloser, string, error) {
	if name == "-" {
		return io.NopCloser(c.stdin), "stdin", nil
	}
	f, err := c.open(name)
	return f, name, err
}
