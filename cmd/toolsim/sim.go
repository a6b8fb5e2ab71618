package main

import (
	"flag"
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/sim/tracemeta"
)

// simFlags are the scenario-shaping flags of sim and fuzz.
type simFlags struct {
	tools, turns int
	faults       string
	swarm        bool
}

func (f *simFlags) register(fs *flag.FlagSet, swarmDefault bool) {
	fs.IntVar(&f.tools, "tools", 4, "most tools in one batch (1..16)")
	fs.IntVar(&f.turns, "turns", 3, "most assistant turns per scenario (1..16)")
	where := "see 'toolsim fuzz --help'"
	if fs.Name() == "fuzz" {
		where = "the Faults list above" // fuzz's own usage lists them
	}
	fs.StringVar(&f.faults, "faults", "all", "comma-separated faults, all or none ("+where+")")
	fs.BoolVar(&f.swarm, "swarm", swarmDefault, "let each seed draw which faults and features are on")
}

// options validates the flags into simulator options.
func (f *simFlags) options() (sim.Options, error) {
	if f.tools < 1 || f.tools > 16 {
		return sim.Options{}, fmt.Errorf("--tools must be 1..16, got %d", f.tools)
	}
	if f.turns < 1 || f.turns > 16 {
		return sim.Options{}, fmt.Errorf("--turns must be 1..16, got %d", f.turns)
	}
	faults, err := fault.Parse(f.faults)
	if err != nil {
		return sim.Options{}, fmt.Errorf("--faults: %w", err)
	}
	return sim.Options{Tools: f.tools, Turns: f.turns, Faults: faults, Swarm: f.swarm}, nil
}

func (c *cli) sim(args []string) int {
	fs := flag.NewFlagSet("sim", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var f simFlags
	f.register(fs, false)
	seed := fs.Uint64("seed", 1, "the scenario's seed")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim sim --seed N [--tools N] [--turns N] [--faults LIST|all] [--swarm]\n\nPrints the canonical trace the simulator generates for one seed. The same seed\nand flags give the same bytes on any machine. The header records the seed and\nthe options, so 'toolsim check' reruns the reconstruction oracles the same way.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 0 {
		fmt.Fprintf(c.stderr, "toolsim sim: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	opts, err := f.options()
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim sim: %v\n", err)
		return exitUsage
	}
	sc := sim.Generate(*seed, opts)
	h := tracemeta.Header(tracemeta.SourceSim, sc.Seed, tracemeta.Scenario(sc))
	if err := event.WriteAll(c.stdout, h, sc.Events); err != nil {
		fmt.Fprintf(c.stderr, "toolsim sim: %v\n", err)
		return exitFail
	}
	return exitOK
}
