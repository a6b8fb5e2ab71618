package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
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
	fs.StringVar(&f.faults, "faults", "all", "comma-separated faults, all or none (see 'toolsim fuzz --help')")
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
	faults, err := sim.ParseFaults(f.faults)
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
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
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
	if err := event.WriteAll(c.stdout, scenarioHeader(sc), sc.Events); err != nil {
		fmt.Fprintf(c.stderr, "toolsim sim: %v\n", err)
		return exitFail
	}
	return exitOK
}

// simMeta is the header meta of a generated trace: enough to regenerate it
// and to rerun its reconstruction oracles.
type simMeta struct {
	Faults      string `json:"faults"`
	Swarm       bool   `json:"swarm,omitempty"`
	Tools       int    `json:"tools"`
	Turns       int    `json:"turns"`
	On          string `json:"on"`
	LogFaults   string `json:"log_faults,omitempty"`
	FaultSeed   uint64 `json:"fault_seed"`
	ReconnectAt int    `json:"reconnect_at,omitempty"`
	BatchIDs    bool   `json:"batch_ids,omitempty"`
	Oracle      string `json:"oracle,omitempty"` // on saved failures: the oracle that failed
}

func scenarioHeader(sc *sim.Scenario) *event.Header {
	m := simMeta{
		Faults: sim.FormatFaults(sc.Options.Faults), Swarm: sc.Options.Swarm, Tools: sc.Options.Tools,
		Turns: sc.Options.Turns, On: sim.FormatFaults(sc.On), FaultSeed: sc.Seed,
		ReconnectAt: sc.ReconnectAt, BatchIDs: sc.BatchIDs,
	}
	if len(sc.LogFaults) > 0 {
		m.LogFaults = sim.FormatFaults(sc.LogFaults)
	}
	return caseHeader(m, sc.Seed)
}

func caseHeader(m simMeta, seed uint64) *event.Header {
	meta, _ := json.Marshal(m)
	h := &event.Header{Trace: event.Version, Source: "sim", Meta: meta}
	if seed <= math.MaxInt64 {
		s := int64(seed)
		h.Seed = &s
	}
	return h
}

// caseFromHeader rebuilds the reconstruction settings a sim header records.
// Traces from elsewhere get the defaults: no log faults, no reconnect.
func caseFromHeader(h *event.Header, evs []event.Event) (*harness.Case, error) {
	c := &harness.Case{Events: evs}
	if h == nil || h.Source != "sim" || len(h.Meta) == 0 {
		return c, nil
	}
	var m simMeta
	if err := json.Unmarshal(h.Meta, &m); err != nil {
		return nil, fmt.Errorf("header meta: %w", err)
	}
	faults, err := store.ParseFaults(m.LogFaults)
	if err != nil {
		return nil, fmt.Errorf("header meta log_faults: %w", err)
	}
	c.LogFaults, c.FaultSeed, c.ReconnectAt, c.BatchIDs = faults, m.FaultSeed, m.ReconnectAt, m.BatchIDs
	return c, nil
}
