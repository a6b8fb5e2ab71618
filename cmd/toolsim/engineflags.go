package main

import (
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/harness"
)

// engineFlags choose the engine that replay, check, fuzz and shrink drive.
type engineFlags struct {
	cmd     string
	diff    bool
	timeout time.Duration
}

func (f *engineFlags) register(fs *flag.FlagSet, withDiff bool) {
	fs.StringVar(&f.cmd, "engine", "", "drive this engine command over the toolsim-engine/1 protocol instead of the reference engine, e.g. 'python3 engine.py' (docs/protocol.md)")
	fs.DurationVar(&f.timeout, "timeout", engineproto.DefaultTimeout, "with --engine: how long the engine may take to answer one message")
	if withDiff {
		fs.BoolVar(&f.diff, "diff", false, "with --engine: also compare the engine with the reference engine after every event, in the fields it declared")
	}
}

// setup starts the external engine, if any, and points the cli at it. It
// returns a cleanup function, or an exit status for a setup problem.
func (f *engineFlags) setup(c *cli, name string) (func(), int) {
	if f.cmd == "" {
		if f.diff {
			fmt.Fprintf(c.stderr, "toolsim %s: --diff needs --engine\n", name)
			return nil, exitUsage
		}
		return func() {}, exitOK
	}
	if f.timeout <= 0 {
		fmt.Fprintf(c.stderr, "toolsim %s: --timeout must be positive\n", name)
		return nil, exitUsage
	}
	argv := splitArgs(f.cmd)
	if len(argv) == 0 {
		fmt.Fprintf(c.stderr, "toolsim %s: --engine: empty command\n", name)
		return nil, exitUsage
	}
	ext := harness.External(argv[0], argv[1:]...).WithOptions(engineproto.Options{Timeout: f.timeout, MetaTools: harness.DefaultMetaTools})
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
	if f.diff {
		c.engineArgs += " --diff"
	}
	c.checkOpts.Fields = info.Fields
	if f.diff {
		c.checkOpts.Reference = referenceEngine
	}
	return func() { stop(); ext.Close() }, exitOK
}
