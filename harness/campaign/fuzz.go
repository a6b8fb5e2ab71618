package campaign

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/report"
	"github.com/toolsim/toolsim/sim"
)

// The flags Fuzz reads, namespaced like rapid's so that they never clash
// with a test binary's own (-update, -seed, …).
var (
	flagSeed   = flag.Int64("toolsim.seed", -1, "campaign.Fuzz: run only this seed")
	flagSeeds  = flag.Int("toolsim.seeds", 0, "campaign.Fuzz: how many seeds (overrides campaign.Seeds)")
	flagFaults = flag.String("toolsim.faults", "", "campaign.Fuzz: comma-separated faults to inject (overrides campaign.Faults)")
	flagWrite  = flag.String("toolsim.write-baseline", "", "campaign.Fuzz: write the findings of this run as a baseline to this file")
	// flagNoShrink is executor.Suite's too (it reads it by name).
	flagNoShrink = flag.Bool("toolsim.no-shrink", false, "campaign.Fuzz, executor.Suite: keep each finding's failing seed unshrunk")
)

// FuzzOption configures Fuzz.
type FuzzOption func(*Campaign)

// Seeds sets how many seeds Fuzz runs (default 1000).
func Seeds(n int) FuzzOption { return func(c *Campaign) { c.Seeds = n } }

// FirstSeed sets the first seed of the range (default 0).
func FirstSeed(s uint64) FuzzOption { return func(c *Campaign) { c.FirstSeed = s } }

// Faults limits the faults the simulator may inject (default: every fault).
func Faults(fs ...fault.Fault) FuzzOption { return func(c *Campaign) { c.Sim.Faults = fs } }

// Workers sets how many scenarios run in parallel (default 1).
func Workers(n int) FuzzOption { return func(c *Campaign) { c.Workers = n } }

// KnownFindings makes Fuzz accept the findings a baseline file lists
// (written by toolsim fuzz --write-baseline, or by -toolsim.write-baseline):
// their repros are checked first, the test fails only on a finding the
// file does not list, and logs the listed ones it no longer finds.
func KnownFindings(path string) FuzzOption { return func(c *Campaign) { c.baselinePath = path } }

// WithOptions sets the oracle options: declared fields, features, meta
// tools, grouping (see Options).
func WithOptions(o harness.Options) FuzzOption { return func(c *Campaign) { c.Check = o } }

// Fuzz runs a seeded swarm campaign against engines from newEngine and
// fails t on every finding (a distinct signature, see Campaign) that the
// KnownFindings baseline does not list. For each it prints the first
// failing seed's violation and the shrunk regression trace, writes both
// under testdata/toolsim/TESTNAME/ (ready to keep in a ReplayDir
// directory), and prints the one command that reruns just that seed. A
// campaign that leaves a fault class untested fails too; -toolsim.write-baseline
// FILE writes the run's findings as a baseline. A clean campaign logs its scenario count and the oracles it
// did not run (NotRun), shown with go test -v. The flags -toolsim.seed,
// -toolsim.seeds and -toolsim.faults
// override the options for one run. Like [Campaign.Run] it raises the
// process's collector target while it runs (unless GOGC is set), which
// tests running in parallel with it share.
//
//	func TestMyEngine(t *testing.T) {
//		campaign.Fuzz(t, func() harness.Engine { return myengine.New() }, campaign.Seeds(1000))
//	}
func Fuzz(t testing.TB, newEngine func() harness.Engine, opts ...FuzzOption) {
	t.Helper()
	c := Campaign{Seeds: 1000, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	for _, o := range opts {
		o(&c)
	}
	if err := applyFlags(&c); err != nil {
		t.Fatalf("campaign.Fuzz: %v", err)
	}
	rep, err := c.Run(newEngine)
	if err != nil {
		t.Fatalf("campaign.Fuzz: %v", err)
	}
	if *flagWrite != "" {
		if err := report.WriteFile(*flagWrite, BaselineOf(rep, c.Baseline).Encode); err != nil {
			t.Fatalf("campaign.Fuzz: %v", err)
		}
	}
	for _, sig := range rep.Fixed {
		t.Logf("campaign.Fuzz: fixed: %q is in the baseline but no longer found: remove it", sig)
	}
	var failed []string
	for _, f := range rep.New() {
		failed = append(failed, describeFinding(t, f, c))
	}
	if len(failed) > 0 {
		t.Fatalf("campaign.Fuzz: %s not in the baseline:\n\n%s", Plural(len(failed), "finding"), strings.Join(failed, "\n"))
	}
	if len(rep.Missing) > 0 && *flagSeed < 0 {
		t.Fatalf("campaign.Fuzz: %d scenarios never injected %s: raise Seeds or narrow Faults", rep.Scenarios, rep.Missing.String())
	}
	if known := len(rep.Findings); known > 0 {
		t.Logf("campaign.Fuzz: %d scenarios, only the baseline's known findings (%d)", rep.Scenarios, known)
	} else {
		t.Logf("campaign.Fuzz: %d scenarios, every oracle run held", rep.Scenarios)
	}
	for _, line := range harness.NotRun(rep.Skipped) {
		t.Logf("campaign.Fuzz: not run: %s", line)
	}
}

// applyFlags applies the -toolsim.* flags to a campaign, and reads its
// baseline file.
func applyFlags(c *Campaign) error {
	if c.baselinePath != "" {
		f, err := os.Open(c.baselinePath)
		if err != nil {
			return fmt.Errorf("KnownFindings: %w", err)
		}
		defer f.Close()
		if c.Baseline, err = ReadBaseline(f, c.baselinePath); err != nil {
			return err
		}
	}
	if *flagFaults != "" {
		fs, err := fault.Parse(*flagFaults)
		if err != nil {
			return fmt.Errorf("-toolsim.faults: %w", err)
		}
		c.Sim.Faults = fs
	}
	if *flagSeeds > 0 {
		c.Seeds = *flagSeeds
	}
	if *flagSeed >= 0 {
		c.FirstSeed, c.Seeds, c.Shard, c.Shards = uint64(*flagSeed), 1, 0, 0
	}
	c.NoShrink = c.NoShrink || *flagNoShrink
	return nil
}

// describeFinding saves a finding and formats it for a test log.
func describeFinding(t testing.TB, fd *Finding, c Campaign) string {
	if fd.Replayed {
		return fmt.Sprintf("finding %q (the baseline's repro for another signature fails with it): %s\n", fd.Signature, fd.Violation)
	}
	s := fmt.Sprintf("finding %q: %s, the first:\n", fd.Signature, Plural(fd.Count, "failing seed"))
	if fd.Flaky != "" {
		s = fmt.Sprintf("flaky %q: %s\n", fd.Signature, fd.Flaky)
	}
	return s + describeFailure(t, &fd.Failure, c, fd.FileName("seed"))
}

// describeFailure saves a campaign failure and formats it for a test log.
func describeFailure(t testing.TB, f *Failure, c Campaign, name string) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "seed %d: %s\n", f.Seed, f.Violation)
	if f.Shrunk != nil {
		fmt.Fprintf(&b, "\nshrunk %d → %d events (%d candidates); the regression trace:\n", len(f.Case.Events), len(f.Shrunk.Events), f.Tests)
		if err := event.WriteAll(&b, c.Header(f, f.Shrunk), f.Shrunk.Events); err != nil {
			fmt.Fprintf(&b, "(cannot encode: %v)\n", err)
		}
		fmt.Fprintf(&b, "\nit fails: %s\n", f.ShrunkBy)
	}
	if f.Note != "" {
		fmt.Fprintf(&b, "note: %s\n", f.Note)
	}
	base := filepath.Join("testdata", "toolsim", fileName(t.Name()), name)
	if paths, err := c.Save(base, f, "toolsim check"); err != nil {
		fmt.Fprintf(&b, "\ncould not save the failure: %v\n", err)
	} else {
		fmt.Fprintf(&b, "\nsaved %s\n", strings.Join(paths, "\nsaved "))
	}
	fmt.Fprintf(&b, "\nrerun this seed (from the module's root): %s\n", GoTest(t.Name(), fmt.Sprintf("-toolsim.seed=%d", f.Seed)))
	b.WriteString("keep the regression: move the .min.jsonl into your ReplayDir directory\n")
	return b.String()
}

// fileName makes a test name safe as a directory name.
func fileName(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == os.PathSeparator || r < ' ' {
			return '_'
		}
		return r
	}, s)
}
