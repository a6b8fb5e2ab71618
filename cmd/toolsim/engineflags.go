package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// engineFlags choose the engine that replay, check, fuzz and shrink drive.
type engineFlags struct {
	cmd       string
	diff      bool
	timeout   time.Duration
	features  string
	metaTools string
	noGroups  bool
	self      bool
	contract  string
	document  string
	robust    bool
}

func (f *engineFlags) register(fs *flag.FlagSet, withDiff bool) {
	fs.StringVar(&f.cmd, "engine", "", "drive this engine command over the toolsim-engine/1 protocol instead of the reference engine, e.g. 'python3 engine.py' (docs/protocol.md)")
	fs.DurationVar(&f.timeout, "timeout", engineproto.DefaultTimeout, "with --engine: how long the engine may take to answer one message")
	if withDiff {
		fs.BoolVar(&f.diff, "diff", false, "with --engine: also compare the engine with the reference engine after every event, in the fields it declared")
	}
	fs.StringVar(&f.features, "features", "all", "the parts of SPEC §2 the engine supports, comma-separated: "+strings.Join(sim.AllFeatures.Strings(), ",")+" (an engine's own declaration narrows it)")
	fs.StringVar(&f.metaTools, "meta-tools", "", "comma-separated meta tool names (default: "+strings.Join(engine.DefaultMetaTools, ",")+"; 'none' for none)")
	fs.BoolVar(&f.noGroups, "no-grouping", false, "the engine shows every call on its own row (no groups); every other oracle still runs")
	fs.BoolVar(&f.self, "self-check", false, "also run toolsim's own persisted-log oracles (live == rebuilt, reconnect, replay twice) on traces toolsim did not generate")
	if withDiff { // the commands that judge: check, fuzz, shrink (not replay)
		f.registerContract(fs)
	}
}

// registerContract adds --contract, --documented and --robustness.
func (f *engineFlags) registerContract(fs *flag.FlagSet) {
	fs.StringVar(&f.contract, "contract", "", "what the engine's real upstream never sends, comma-separated (docs/simulator.md, Contracts): executor, all, none or "+strings.Join(contract.All.Names(), ",")+" (default: the engine's own declaration)")
	fs.StringVar(&f.document, "documented", "", "the library's documented behaviours, comma-separated: "+behaviourNames()+" (default: the engine's own declaration)")
	fs.BoolVar(&f.robust, "robustness", false, "robustness mode: also explore and report inputs outside the engine's contract, each labelled robustness")
}

// behaviourNames lists the documented behaviours for help texts.
func behaviourNames() string {
	names := make([]string, len(contract.Behaviours))
	for i, b := range contract.Behaviours {
		names[i] = string(b)
	}
	return strings.Join(names, ",")
}

// options reads the flags that shape the oracles, whatever the engine.
func (f *engineFlags) options() (harness.Options, error) {
	var o harness.Options
	feats, err := sim.ParseFeatures(f.features)
	if err != nil {
		return o, fmt.Errorf("--features: %w", err)
	}
	if f.features != "" && f.features != "all" {
		o.Features = feats
	}
	o.NoGrouping = f.noGroups
	if o.Contract.Guarantees, err = contract.Parse(f.contract); err != nil {
		return o, fmt.Errorf("--contract: %w", err)
	}
	if o.Contract.Documented, err = contract.ParseBehaviours(strings.Split(f.document, ",")); err != nil {
		return o, fmt.Errorf("--documented: %w", err)
	}
	switch f.metaTools {
	case "":
	case "none":
		o.MetaTools = []string{}
	default:
		o.MetaTools = strings.Split(f.metaTools, ",")
	}
	return o, nil
}

// setup starts the external engine, if any, and points the cli at it. It
// returns a cleanup function, or an exit status for a setup problem.
func (f *engineFlags) setup(c *cli, name string) (func(), int) {
	opts, err := f.options()
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim %s: %v\n", name, err)
		return nil, exitUsage
	}
	c.checkOpts = opts
	c.robustness = f.robust
	if f.cmd == "" {
		if f.diff {
			fmt.Fprintf(c.stderr, "toolsim %s: --diff needs --engine\n", name)
			return nil, exitUsage
		}
		// The reference engine is toolsim's own: its persisted-log round
		// trip is checked too, on the traces toolsim generated (or on
		// every trace with --self-check).
		c.checkOpts.SelfCheck = true
		c.selfCheckAll = f.self
		c.engineArgs = f.optionArgs()
		return func() {}, exitOK
	}
	if f.timeout <= 0 {
		fmt.Fprintf(c.stderr, "toolsim %s: --timeout must be positive\n", name)
		return nil, exitUsage
	}
	argv := engineproto.SplitCommand(f.cmd)
	if len(argv) == 0 {
		fmt.Fprintf(c.stderr, "toolsim %s: --engine: empty command\n", name)
		return nil, exitUsage
	}
	ext := harness.External(argv[0], argv[1:]...).WithOptions(engineproto.Options{Timeout: f.timeout, MetaTools: metaOrDefault(opts.MetaTools), Features: opts.Features.Strings()})
	stop := func() {}
	if name != "fuzz" { // fuzz stops its campaign on Ctrl-C, then closes the engines
		stop = c.killEnginesOnSignal(name)
	}
	info, err := ext.Start()
	if err != nil {
		stop()
		fmt.Fprintf(c.stderr, "toolsim %s: %v\n", name, err)
		var ee *engineproto.EngineError
		if errors.As(err, &ee) && !ee.Setup {
			return nil, exitFail
		}
		return nil, exitUsage
	}
	c.newEngine = ext.New
	c.engineArgs = " --engine " + shellQuote(f.cmd)
	if f.timeout != engineproto.DefaultTimeout {
		c.engineArgs += " --timeout " + durationArg(f.timeout)
	}
	if f.diff {
		c.engineArgs += " --diff"
	}
	c.checkOpts = harness.Declared(c.checkOpts, info)
	c.engineArgs += f.optionArgs()
	if f.diff {
		c.checkOpts.Reference = referenceEngine
	}
	return func() { stop(); ext.Close() }, exitOK
}

// optionArgs repeats the oracle-shaping flags for reproduce commands.
func (f *engineFlags) optionArgs() string {
	var s string
	if f.features != "" && f.features != "all" {
		s += " --features " + shellQuote(f.features)
	}
	if f.metaTools != "" {
		s += " --meta-tools " + shellQuote(f.metaTools)
	}
	if f.noGroups {
		s += " --no-grouping"
	}
	if f.contract != "" {
		s += " --contract " + shellQuote(f.contract)
	}
	if f.document != "" {
		s += " --documented " + shellQuote(f.document)
	}
	if f.robust {
		s += " --robustness"
	}
	return s
}

// metaOrDefault is the meta tool list sent to an engine: nil means the
// default set.
func metaOrDefault(names []string) []string {
	if names == nil {
		return engine.DefaultMetaTools
	}
	return names
}

// optsFor is the check options for one case: toolsim's own persisted-log
// oracles run on the traces toolsim generated, or on every trace with
// --self-check.
func (c *cli) optsFor(cs *harness.Case) harness.Options {
	o := c.checkOpts
	o.SelfCheck = o.SelfCheck && (cs.Generated || c.selfCheckAll)
	return o
}

// durationArg spells a duration for a command line the way a user would
// type it: whole seconds as "60s", whole milliseconds as "1500ms", any
// other as time.Duration.String (e.g. "1.5µs"); each parses back to d.
func durationArg(d time.Duration) string {
	switch {
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	case d%time.Millisecond == 0:
		return fmt.Sprintf("%dms", d/time.Millisecond)
	}
	return d.String()
}

// killEnginesOnSignal makes Ctrl-C and SIGTERM end the command with 130
// after killing the engines' process groups (the terminal's Ctrl-C does
// not reach them: each runs in its own group). It returns a function that
// stops watching.
func (c *cli) killEnginesOnSignal(name string) func() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			engineproto.KillAll()
			fmt.Fprintf(c.stderr, "toolsim %s: interrupted: killed the engine\n", name)
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
