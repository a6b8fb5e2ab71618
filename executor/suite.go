package executor

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/report"
	"github.com/toolsim/toolsim/sim"
)

// Suite is the Go test of an adapter: a seeded campaign inside the
// engine's contract, and the regressions it keeps. Run makes one subtest
// per bug class the baseline does not list, failing with each finding's
// signature, the path of its shrunk repro and the command that reruns
// it, and one subtest per regression, which passes while the trace still
// fails as its baseline says. Its log line counts the bug classes that
// failing subtests report, so the two always agree. The flags of
// campaign.Fuzz apply: -toolsim.seed, -toolsim.seeds, -toolsim.no-shrink
// and -toolsim.write-baseline.
type Suite struct {
	New     func() harness.Engine
	Options harness.Options // with the contract (contract.Executor)
	Seeds   int             // default 300
	Workers int             // default 1
	// Baseline is the known findings' file (campaign.KnownFindings's); ""
	// for none. A file not written yet is no baseline yet: the log says
	// the command that writes it (-toolsim.write-baseline).
	Baseline string
	// Regressions is a directory of traces that show known findings:
	// NAME.jsonl must fail with a signature of the baseline, those under
	// robustness/ must be outside the contract (and fail without it),
	// those under documented/ must show a declared documented behaviour,
	// those under by-design/ one declared by design, and those under
	// recipe/ (a finding the adapter's wiring of the library's remedy
	// removed) must pass.
	Regressions string
	// MaxTime caps the campaign's wall time: once it has run this long it
	// checks no more seeds and reports what the seeds it checked found
	// (the log counts them). Zero: no cap, except go test's own -timeout:
	// the campaign stops handing out seeds once half the time the test
	// had left at its start has gone, so that shrinking and the report
	// come before the deadline's goroutine dump.
	MaxTime time.Duration
	// NoShrink keeps each finding's failing seed unshrunk (it is still
	// checked again on a fresh engine): for a slow library, whose
	// shrinking replays many candidates. Unshrunk, a bug seen only after
	// another is not set apart, so more classes can fail.
	NoShrink bool
	// JSON, when set, is a file the campaign's findings are written to,
	// as JSON Lines (toolsim fuzz --json's format, which toolsim merge
	// and toolsim report read).
	JSON string
}

// Run runs the campaign (subtest "campaign") and the regressions (subtest
// "regressions").
func (s Suite) Run(t *testing.T) {
	t.Helper()
	base, err := s.baseline()
	if err != nil {
		t.Fatal(err)
	}
	if base == nil && s.Baseline != "" && flagValue("toolsim.write-baseline") == "" {
		t.Logf("no baseline yet at %s: every finding fails; once each is judged, write it: %s", s.Baseline,
			campaign.GoTest(strings.SplitN(t.Name(), "/", 2)[0]+"/campaign", "-toolsim.write-baseline="+s.Baseline))
	}
	t.Run("campaign", func(t *testing.T) { s.campaign(t, base) })
	if s.Regressions != "" {
		t.Run("regressions", func(t *testing.T) { s.regressions(t, base) })
	}
}

// baseline reads the baseline file; one not written yet is none.
func (s Suite) baseline() (*campaign.Baseline, error) {
	if s.Baseline == "" {
		return nil, nil
	}
	f, err := os.Open(s.Baseline)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil // none yet (Run says how to write it), or about to be written
	}
	if err != nil {
		return nil, fmt.Errorf("executor.Suite: the baseline: %w", err)
	}
	defer f.Close()
	return campaign.ReadBaseline(f, s.Baseline)
}

// flagValue reads one of campaign.Fuzz's -toolsim.* flags.
func flagValue(name string) string {
	if f := flag.Lookup(name); f != nil {
		return f.Value.String()
	}
	return ""
}

// plan is the campaign Run runs, after the -toolsim.* flags.
func (s Suite) plan(base *campaign.Baseline) campaign.Campaign {
	c := campaign.Campaign{Seeds: s.Seeds, Workers: s.Workers, Check: s.Options, Baseline: base,
		Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	if c.Seeds <= 0 {
		c.Seeds = 300
	}
	if n, err := strconv.Atoi(flagValue("toolsim.seeds")); err == nil && n > 0 {
		c.Seeds = n
	}
	if n, err := strconv.ParseInt(flagValue("toolsim.seed"), 10, 64); err == nil && n >= 0 {
		c.FirstSeed, c.Seeds = uint64(n), 1
	}
	c.NoShrink = s.NoShrink || flagValue("toolsim.no-shrink") == "true"
	return c
}

// budget is how long the campaign may hand out seeds: MaxTime, else half
// the time t has left before go test's -timeout (0: no limit).
func (s Suite) budget(t *testing.T) time.Duration {
	if s.MaxTime > 0 {
		return s.MaxTime
	}
	if end, ok := t.Deadline(); ok {
		return max(time.Until(end)/2, time.Millisecond)
	}
	return 0
}

func (s Suite) campaign(t *testing.T, base *campaign.Baseline) {
	c := s.plan(base)
	if d := s.budget(t); d > 0 {
		stop := make(chan struct{})
		defer time.AfterFunc(d, func() { close(stop) }).Stop()
		c.Stop = stop
	}
	began := time.Now()
	rep, err := c.Run(s.New)
	took := time.Since(began)
	if err != nil {
		t.Fatal(err) // toolsim's own fault (campaign.ToolsimError) names itself
	}
	if err := s.write(rep, t.Name(), base); err != nil {
		t.Fatal(err)
	}
	for _, sig := range rep.Fixed {
		t.Errorf("fixed: %q is in the baseline but no longer found: remove it, its regression and its class in the findings", sig)
	}
	fails := failures(rep, c, t.Name())
	for _, f := range fails {
		t.Run(f.class, func(t *testing.T) { t.Error(f.message) })
	}
	if len(rep.Missing) > 0 && c.Seeds > 1 && !rep.Interrupted {
		t.Errorf("%d scenarios never injected %s: raise Seeds", rep.Scenarios, rep.Missing)
	}
	t.Logf("%d scenarios in %v (%s/s, Workers %d)%s: %s", rep.Scenarios, took.Round(time.Millisecond),
		campaign.Rate(float64(rep.Scenarios)/max(took.Seconds(), 1e-9)), max(c.Workers, 1), cut(rep, c), tally(rep, fails, c.NoShrink))
	if line := rep.Documented(); line != "" {
		t.Log(line)
	}
}

// write writes the baseline (-toolsim.write-baseline) and the JSON
// report (JSON) the run asked for.
func (s Suite) write(rep *campaign.Report, test string, base *campaign.Baseline) error {
	if path := flagValue("toolsim.write-baseline"); path != "" {
		if err := report.WriteFile(path, campaign.BaselineOf(rep, base).Encode); err != nil {
			return err
		}
	}
	if s.JSON == "" {
		return nil
	}
	dir := filepath.Join("testdata", "toolsim", strings.ReplaceAll(test, "/", "_"))
	rs := rep.Results(test, func(f *campaign.Finding) string { return filepath.Join(dir, f.FileName("seed")) },
		func(path string) string { return "toolsim check " + path })
	suite := &report.Suite{Name: test, Results: rs, NotRun: harness.NotRun(rep.Skipped)}
	return report.WriteFile(s.JSON, func(w io.Writer) error { return report.WriteJSON(w, suite) })
}

// cut says how far a campaign its time budget stopped got.
func cut(rep *campaign.Report, c campaign.Campaign) string {
	if !rep.Interrupted {
		return ""
	}
	return fmt.Sprintf(", stopped by its time budget after %d of %d seeds", rep.Scenarios, c.Seeds)
}

// tally counts what the campaign found as its subtests report it: the
// bug classes failing below (one subtest each), then the others, which
// the baseline lists.
func tally(rep *campaign.Report, fails []failure, noShrink bool) string {
	failing := map[string]bool{}
	for _, f := range fails {
		failing[f.class] = true
	}
	known := 0
	for _, cl := range rep.Classes() {
		if !failing[cl.Name] {
			known++
		}
	}
	line := fmt.Sprintf("%s failing below (a subtest each), %s in the baseline",
		campaign.Plural(len(fails), "bug class"), campaign.Plural(known, "other bug class"))
	if noShrink && len(fails) > 0 {
		line += " (unshrunk: a bug seen only after another is not set apart, so a shrinking run may count fewer)"
	}
	return line
}

// failure is one bug class the baseline does not list, as its subtest
// reports it.
type failure struct{ class, message string }

// failures groups the findings the baseline does not list by bug class:
// each with its signature, seeds, shrunk repro (saved under
// testdata/toolsim/TEST/) and the command that reruns its seed.
func failures(rep *campaign.Report, c campaign.Campaign, test string) []failure {
	var out []failure
	index := map[string]int{}
	for _, f := range rep.New() {
		name := f.Class
		if name == "" {
			name = campaign.ClassOf(f.Signature)
		}
		i, ok := index[name]
		if !ok {
			i = len(out)
			index[name] = i
			out = append(out, failure{class: name, message: "bug class " + strconv.Quote(name) + ":\n"})
		}
		out[i].message += describe(f, c, test)
	}
	return out
}

// describe says what a finding is and how to see it again.
func describe(f *campaign.Finding, c campaign.Campaign, test string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nsignature %q: %s, the first %d\n%s\n", f.Signature, campaign.Plural(f.Count, "failing seed"), f.Seed, f.Violation)
	base := filepath.Join("testdata", "toolsim", strings.ReplaceAll(test, "/", "_"), f.FileName("seed"))
	paths, err := c.Save(base, &f.Failure, "toolsim check")
	if err != nil {
		fmt.Fprintf(&b, "could not save the repro: %v\n", err)
	}
	repro := base + ".jsonl"
	for _, p := range paths {
		if strings.HasSuffix(p, ".min.jsonl") {
			repro = p
		}
	}
	if f.Shrunk != nil {
		fmt.Fprintf(&b, "shrunk %d → %d events\n", len(f.Case.Events), len(f.Shrunk.Events))
	}
	fmt.Fprintf(&b, "repro: %s\n", repro)
	top := strings.SplitN(test, "/", 2)[0]
	fmt.Fprintf(&b, "reproduce (from the module's root): %s\n", campaign.GoTest(top+"/campaign", fmt.Sprintf("-toolsim.seed=%d", f.Seed)))
	return b.String()
}

// regressions checks every kept trace: still failing as the baseline says,
// or, under recipe/, passing.
func (s Suite) regressions(t *testing.T, base *campaign.Baseline) {
	for _, dir := range []string{"", "robustness", "documented", "by-design", "recipe"} {
		paths, _ := filepath.Glob(filepath.Join(s.Regressions, dir, "*.jsonl"))
		for _, p := range paths {
			name := strings.TrimSuffix(filepath.Join(dir, filepath.Base(p)), ".jsonl")
			t.Run(name, func(t *testing.T) {
				if msg := s.regression(p, dir, base); msg != "" {
					t.Errorf("%s\nreproduce (from the module's root): %s", msg, campaign.GoTest(t.Name()))
				}
			})
		}
	}
}

// recipeVerdict is the verdict on a trace under recipe/: a finding the
// adapter's wiring of the library's documented remedy removed, which must
// keep passing.
func recipeVerdict(path string, vs []harness.Violation) string {
	if len(vs) == 0 {
		return ""
	}
	return fmt.Sprintf("%s fails again with %q: the remedy the adapter wires no longer removes this finding (its findings page, \"Before the recipe was wired\"):\n%s", path, vs[0].Signature, vs[0])
}

// regression checks one kept trace and says what is wrong with it ("":
// nothing: it still fails as it should).
func (s Suite) regression(path, dir string, base *campaign.Baseline) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	h, evs, err := event.ReadAll(f, event.ReaderOptions{Name: path})
	if err != nil {
		return err.Error()
	}
	c, err := harness.ReadCase(h, evs)
	if err != nil {
		return fmt.Sprintf("%s: %v", path, err)
	}
	opts := s.Options
	opts.First = true
	breach := opts.Contract.Guarantees.Check(evs)
	if dir == "robustness" {
		if breach == nil {
			return fmt.Sprintf("%s is inside the contract %s: move it out of robustness/", path, opts.Contract.Guarantees)
		}
		opts.Contract.Guarantees = nil
	} else if breach != nil {
		return fmt.Sprintf("%s is outside the contract (%s): move it to robustness/", path, breach)
	}
	vs := harness.CheckCase(s.New, c, opts)
	if dir == "recipe" {
		return recipeVerdict(path, vs)
	}
	if len(vs) == 0 {
		return fmt.Sprintf("%s passes now: the library fixed it; move it out of %s and its class out of the findings", path, s.Regressions)
	}
	return failVerdict(path, dir, vs[0], opts.Contract, base)
}

// failVerdict is the verdict on a kept trace of folder dir that fails with
// v first: "" when that is what the folder says of it (a bug the baseline
// lists; a behaviour declared documented, or by design).
func failVerdict(path, dir string, v harness.Violation, c contract.Contract, base *campaign.Baseline) string {
	sig := v.Signature
	switch label := c.Label(campaign.Documents(c, sig)); {
	case dir == "documented" && label != contract.LabelDocumented:
		return fmt.Sprintf("%s fails with %q, which no declared documented behaviour (%v) covers:\n%s", path, sig, c.Documented, v)
	case dir == "by-design" && label != contract.LabelByDesign:
		return fmt.Sprintf("%s fails with %q, which no behaviour declared by design (%v) covers:\n%s", path, sig, c.ByDesign, v)
	case dir == "" && !base.HasBug(sig):
		return fmt.Sprintf("%s fails with %q, which the baseline does not list as a bug:\n%s", path, sig, v)
	}
	return ""
}
