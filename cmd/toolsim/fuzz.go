package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
)

type fuzzFlags struct {
	sim        simFlags
	seeds      int
	first      uint64
	duration   time.Duration
	workers    int
	shard      string
	exhaustive bool
	out        string
	noShrink   bool
	racy       bool
	guided     bool
	stopFirst  bool
	maxFinds   int
	baseline   string
	writeBase  string
	engine     engineFlags
	reports    reportFlags
	seedsSet   bool // --seeds was given (0 is then refused, not the default)
}

func (c *cli) fuzz(args []string) int {
	fs := flag.NewFlagSet("fuzz", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var f fuzzFlags
	f.sim.register(fs, true)
	fs.IntVar(&f.seeds, "seeds", 0, "how many seeds to run (default 2000, or unbounded with --duration)")
	fs.Uint64Var(&f.first, "first", 0, "the first seed")
	fs.DurationVar(&f.duration, "duration", 0, "stop after this long (e.g. 30s, 5m)")
	fs.IntVar(&f.workers, "workers", 2, "parallel workers")
	fs.StringVar(&f.shard, "shard", "", "K/N: run the K-th of N slices of the seed range (CI matrices)")
	fs.BoolVar(&f.exhaustive, "exhaustive", false, "check every ordering of one batch of --tools tools (≤ 4) with one progress each and every cancel point, instead of seeds")
	fs.StringVar(&f.out, "out", "failures", "directory for failing traces and their shrunk regressions")
	fs.BoolVar(&f.noShrink, "no-shrink", false, "save a failure without shrinking it (it is still checked again on a fresh engine)")
	fs.BoolVar(&f.racy, "racy", false, "the engine races (a real app on the wall clock): a new finding that does not fail the same way when checked again on a fresh engine is reported flaky and does not fail the run, nor does a new signature of a bug class the --baseline lists")
	fs.BoolVar(&f.guided, "guided", false, "spend part of the seeds on mutants of the scenarios that reached a new signature, state or (state, fault) pair: rare findings come sooner (docs/simulator.md, Guided campaigns)")
	fs.BoolVar(&f.stopFirst, "stop-at-first", false, "stop at the lowest failing seed: one finding (the behaviour before findings)")
	fs.IntVar(&f.maxFinds, "max-findings", 0, "stop once `N` distinct findings are found (0: run every seed)")
	fs.StringVar(&f.baseline, "baseline", "", "known findings (`FILE`, from --write-baseline): their repros are checked first; the run fails only on a finding not listed, and names the listed ones it no longer finds")
	fs.StringVar(&f.writeBase, "write-baseline", "", "write this run's findings, with their repros, as a baseline to `FILE`")
	f.engine.register(fs, true)
	f.reports.register(fs, false)
	fs.Usage = func() { fuzzUsage(fs) }
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	fs.Visit(func(fl *flag.Flag) { f.seedsSet = f.seedsSet || fl.Name == "seeds" })
	camp, err := f.campaign(fs.NArg())
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim fuzz: %v\n", err)
		return exitUsage
	}
	cleanup, code := f.engine.setup(c, "fuzz")
	if cleanup == nil {
		return code
	}
	defer cleanup()
	camp.Check = c.checkOpts
	camp.Robustness = f.engine.Robustness
	return c.runCampaign(camp, &f)
}

func fuzzUsage(fs *flag.FlagSet) {
	fmt.Fprintln(fs.Output(), `usage: toolsim fuzz [--seeds N | --duration D] [--workers N] [--shard K/N] [--faults LIST] [--exhaustive]
                    [--engine CMD [--diff] [--timeout D]] [--features LIST] [--contract LIST] [--robustness]
                    [--json FILE] [--junit FILE] [--guided]
                    [--max-findings N | --stop-at-first] [--baseline FILE] [--write-baseline FILE]

Generates scenarios from consecutive seeds, drives the reference engine through
each one and checks every oracle after every event. Prints progress, then the
coverage of each fault class and interesting state, the throughput, and the
findings: one per signature (what went wrong, whatever the seed), with how many
seeds failed with it and the first. Each finding is shrunk to the smallest trace
that fails with its signature inside the run's --faults and --features, checked
again on a fresh engine (else reported flaky), saved with its shrunk form under
--out, and printed with the one command that replays it. Ctrl-C stops early
and prints what was found so far. Exit status: 0 clean (or only --baseline
findings), 1 a new or flaky finding or a fault class never reached, 2 usage error.`)
	fmt.Fprintf(fs.Output(), "\nFaults (--faults takes all, none or a comma list):\n  trace: %s\n  log:   %s\n\nFlags:\n", fault.Trace.Join(", "), fault.Log.Join(", "))
	printFlags(fs)
}

// campaign validates the flags into a campaign.
func (f *fuzzFlags) campaign(nargs int) (campaign.Campaign, error) {
	var camp campaign.Campaign
	if nargs != 0 {
		return camp, fmt.Errorf("unexpected arguments (fuzz takes only flags)")
	}
	opts, err := f.sim.options()
	if err != nil {
		return camp, err
	}
	if f.workers < 1 || f.workers > 256 {
		return camp, fmt.Errorf("--workers must be 1..256, got %d", f.workers)
	}
	if f.seeds < 0 || f.duration < 0 {
		return camp, fmt.Errorf("--seeds and --duration must not be negative")
	}
	if f.seedsSet && f.seeds == 0 {
		return camp, fmt.Errorf("--seeds must be at least 1 (leave it out for 2000, or for no bound with --duration)")
	}
	if f.exhaustive && (f.duration > 0 || f.shard != "" || f.seeds > 0 || f.guided) {
		return camp, fmt.Errorf("--exhaustive checks a fixed set of orderings: it takes no --seeds, --duration, --shard or --guided")
	}
	if f.exhaustive && f.sim.tools > 4 {
		return camp, fmt.Errorf("--exhaustive takes --tools 1..4, got %d", f.sim.tools)
	}
	if f.maxFinds < 0 {
		return camp, fmt.Errorf("--max-findings must not be negative, got %d", f.maxFinds)
	}
	camp = campaign.Campaign{Seeds: f.seeds, FirstSeed: f.first, Workers: f.workers, Sim: opts, NoShrink: f.noShrink, Racy: f.racy,
		Guided: f.guided, StopAtFirst: f.stopFirst, MaxFindings: f.maxFinds}
	if f.baseline != "" {
		if camp.Baseline, err = readBaseline(f.baseline); err != nil {
			return camp, err
		}
	}
	switch {
	case camp.Seeds == 0 && f.duration > 0:
		camp.Seeds = math.MaxInt32
	case camp.Seeds == 0:
		camp.Seeds = 2000
	}
	if f.shard != "" {
		camp.Shard, camp.Shards, err = parseShard(f.shard)
	}
	return camp, err
}

// parseShard reads K/N with 1 ≤ K ≤ N.
func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	k, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("--shard %q: want K/N, e.g. 2/4", s)
	}
	if n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("--shard %s: want 1 ≤ K ≤ N", s)
	}
	return k, n, nil
}

// runCampaign runs a campaign with progress, Ctrl-C and a time budget, and
// prints its report.
func (c *cli) runCampaign(camp campaign.Campaign, f *fuzzFlags) int {
	stop := make(chan struct{})
	var once sync.Once
	halt := func() { once.Do(func() { close(stop) }) }
	// The first Ctrl-C stops the campaign (the report and any failure are
	// still printed and saved); after it, a second Ctrl-C ends the process.
	var interrupted atomic.Bool
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	done := make(chan struct{})
	defer close(done)
	defer signal.Stop(sig)
	go func() {
		select {
		case <-sig:
			signal.Stop(sig)
			interrupted.Store(true)
			halt()
		case <-done:
		}
	}()
	if f.duration > 0 {
		t := time.AfterFunc(f.duration, halt)
		defer t.Stop()
	}
	camp.Stop = stop
	endProgress := camp.ShowProgress(c.stderr)
	start := time.Now()
	clock := seedClock(&camp, start)
	var rep *campaign.Report
	var err error
	if f.exhaustive {
		rep, err = campaign.RunExhaustive(c.engine(), sim.ExhaustiveOptions{Tools: f.sim.tools, Progress: 1, Cancel: true}, camp)
	} else {
		rep, err = camp.Run(c.engine())
	}
	endProgress()
	if te := new(campaign.ToolsimError); err != nil && !errors.As(err, &te) {
		fmt.Fprintf(c.stderr, "toolsim fuzz: %v\n", err)
		return exitUsage
	}
	c.printReport(rep, camp, clock())
	rec := f.reports.recorder("toolsim fuzz")
	code := c.campaignEnd(rep, camp, f, interrupted.Load())
	rec.fuzz(c, rep, f)
	return c.toolsimExit(rec.write(c, code), err)
}

// toolsimExit is fuzz's exit status once its report is out: 3 when the
// campaign met toolsim's own fault (campaign.ToolsimError, printed last),
// whatever it found, else code.
func (c *cli) toolsimExit(code int, err error) int {
	if te := new(campaign.ToolsimError); errors.As(err, &te) {
		fmt.Fprintf(c.stderr, "toolsim fuzz: %v\n", err)
		return exitToolsim
	}
	return code
}
