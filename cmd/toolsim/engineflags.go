package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/toolsim/toolsim/engineflag"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/harness"
)

// engineFlags choose the engine that replay, check, fuzz and shrink drive
// (package engineflag).
type engineFlags struct{ engineflag.Flags }

func (f *engineFlags) register(fs *flag.FlagSet, withDiff bool) { f.Register(fs, withDiff) }

// setup starts the engine the flags choose and points the cli at it. It
// returns a cleanup function, or an exit status for a setup problem.
func (f *engineFlags) setup(c *cli, name string) (func(), int) {
	stop := func() {}
	if f.Cmd != "" && name != "fuzz" { // fuzz stops its campaign on Ctrl-C, then closes the engines
		stop = c.killEnginesOnSignal(name)
	}
	e, err := f.Start()
	if err != nil {
		stop()
		fmt.Fprintf(c.stderr, "toolsim %s: %v\n", name, err)
		var ee *engineproto.EngineError
		if errors.As(err, &ee) && !ee.Setup {
			return nil, exitFail
		}
		return nil, exitUsage
	}
	c.checkOpts, c.robustness, c.selfCheckAll, c.engineArgs = e.Options, f.Robustness, e.AllTraces, e.Args
	if f.Cmd != "" {
		c.newEngine = e.New
	}
	return func() { stop(); e.Close() }, exitOK
}

// optsFor is the check options for one case: toolsim's own persisted-log
// oracles run on the traces toolsim generated, or on every trace with
// --self-check.
func (c *cli) optsFor(cs *harness.Case) harness.Options {
	o := c.checkOpts
	o.SelfCheck = o.SelfCheck && (cs.Generated || c.selfCheckAll)
	return o
}

// interrupting is set once a signal began ending the command: main then
// leaves the exit to the signal's handler (exit status 130).
var interrupting atomic.Bool

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
			// Said and marked first: killing the engine ends the command's
			// wait for it, and main must not exit with that failure first.
			interrupting.Store(true)
			fmt.Fprintf(c.stderr, "toolsim %s: interrupted: killed the engine\n", name)
			engineproto.KillAll()
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
