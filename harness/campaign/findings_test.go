package campaign_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// bug is one planted bug as parts of a mutant, so that several combine
// into one engine.
type bug struct {
	name  string
	input func(e *engine.Engine, ev *event.Event) *event.Event
	view  func(t *timeline.Tool)
}

// plantedBugs are single mutants of the mutation test, each bending one
// thing no other touches.
var plantedBugs = []bug{
	{name: "denied shown as failed", view: func(t *timeline.Tool) {
		if t.Status == timeline.StatusDenied {
			t.Status = timeline.StatusFailed
		}
	}},
	{name: "pending shown as running", view: func(t *timeline.Tool) {
		if t.Status == timeline.StatusPending {
			t.Status = timeline.StatusRunning
		}
	}},
	{name: "an error's text dropped", view: func(t *timeline.Tool) { t.Error = "" }},
	{name: "progress output not streamed", input: planted.Rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		if ev.Kind == event.KindToolProgress {
			ev.Output = ""
		}
		return &ev
	})},
}

// withBugs is the planted.Reference engine with every bug of bs planted.
func withBugs(bs ...bug) func() harness.Engine {
	m := planted.Bent{}
	for _, b := range bs {
		if in, prev := b.input, m.Input; in != nil {
			m.Input = func(e *engine.Engine, ev *event.Event) *event.Event {
				if prev != nil {
					if ev = prev(e, ev); ev == nil {
						return nil
					}
				}
				return in(e, ev)
			}
		}
		if v, prev := b.view, m.View; v != nil {
			m.View = func(t *timeline.Tool) {
				if prev != nil {
					prev(t)
				}
				v(t)
			}
		}
	}
	return planted.Mutate(m)
}

// TestOneCampaignFindsEveryBug: an engine with four planted bugs gives
// one campaign findings for each bug, and each finding's repro tells its
// bug apart: it fails the engine with that bug alone and passes the
// engines with each other bug alone.
func TestOneCampaignFindsEveryBug(t *testing.T) {
	camp := campaign.Campaign{Seeds: 1000, Workers: 2, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	rep, err := camp.Run(withBugs(plantedBugs...))
	if err != nil {
		t.Fatal(err)
	}
	caught := map[string][]string{}
	for _, f := range rep.Findings {
		if f.Shrunk == nil || f.Flaky != "" {
			t.Fatalf("finding %q not shrunk or not confirmed: %s %s", f.Signature, f.Note, f.Flaky)
		}
		if len(f.Shrunk.Events) > 12 {
			t.Errorf("finding %q: repro of %d events, want ≤ 12", f.Signature, len(f.Shrunk.Events))
		}
		if f.After != "" {
			continue // seen only behind another finding: not a bug class of its own
		}
		var fails []string
		for _, b := range plantedBugs {
			found := harness.CheckCase(withBugs(b), f.Shrunk, harness.Options{First: true})
			if len(found) > 0 {
				fails = append(fails, b.name)
			}
		}
		if len(fails) != 1 {
			t.Errorf("finding %q: its repro fails the engines with %q, want exactly one bug", f.Signature, fails)
			continue
		}
		caught[fails[0]] = append(caught[fails[0]], f.Signature)
	}
	for _, b := range plantedBugs {
		if len(caught[b.name]) == 0 {
			t.Errorf("bug %q: no finding of its own among %d", b.name, len(rep.Findings))
		}
		t.Logf("%s: %s", b.name, strings.Join(caught[b.name], "; "))
	}
	// One class per bug: the classes are exactly the bugs' signature sets.
	classes := rep.Classes()
	if len(classes) != len(plantedBugs) {
		t.Errorf("%s, want %d bugs", rep.Bugs(), len(plantedBugs))
	}
	for _, c := range classes {
		var sigs []string
		for _, f := range c.Findings {
			sigs = append(sigs, f.Signature)
		}
		matched := false
		for _, b := range plantedBugs {
			matched = matched || strings.Join(caught[b.name], "; ") == strings.Join(sigs, "; ")
		}
		if !matched {
			t.Errorf("class %q holds %q, which is not one bug's findings", c.Name, sigs)
		}
	}
	t.Log(rep.Bugs())
}

// TestBaselineGatesNewFindings: a baseline written from a run makes the
// same run pass, with every finding known; one more planted bug makes it
// fail on the new findings only; and with a bug fixed, the run names the
// baseline's findings it no longer finds.
func TestBaselineGatesNewFindings(t *testing.T) {
	camp := campaign.Campaign{Seeds: 300, Workers: 2, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	two := withBugs(plantedBugs[0], plantedBugs[2])
	rep, err := camp.Run(two)
	if err != nil || rep.OK() || len(rep.Findings) == 0 {
		t.Fatalf("the two bugs were not found (%v)", err)
	}
	var buf bytes.Buffer
	if err := campaign.BaselineOf(rep, nil).Encode(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "baseline.json")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(path)
	base, err := campaign.ReadBaseline(f, path)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	camp.Baseline = base
	again, _ := camp.Run(two)
	if !again.OK() || len(again.New()) != 0 || len(again.Fixed) != 0 {
		t.Errorf("same run with its baseline: OK %v, %d new, fixed %q; want OK, none new, none fixed", again.OK(), len(again.New()), again.Fixed)
	}
	three, _ := camp.Run(withBugs(plantedBugs[0], plantedBugs[1], plantedBugs[2]))
	if three.OK() || len(three.New()) == 0 {
		t.Fatalf("a third bug planted: OK %v with %d new findings, want a failure", three.OK(), len(three.New()))
	}
	for _, fd := range three.New() {
		if base.Has(fd.Signature) {
			t.Errorf("new finding %q is in the baseline", fd.Signature)
		}
	}
	one, _ := camp.Run(withBugs(plantedBugs[0]))
	if !one.OK() || len(one.Fixed) == 0 {
		t.Errorf("a bug fixed: OK %v, fixed %q; want OK and the fixed bug's signatures named", one.OK(), one.Fixed)
	}
}

// TestMaxFindingsIsDeterministic: a campaign stopped at N findings
// reports the same findings, counts and coverage on one worker and on
// two.
func TestMaxFindingsIsDeterministic(t *testing.T) {
	run := func(workers int) string {
		camp := campaign.Campaign{Seeds: 600, Workers: workers, MaxFindings: 3, NoShrink: true,
			Sim: sim.Options{Faults: fault.All(), Swarm: true}}
		rep, err := camp.Run(withBugs(plantedBugs...))
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, f := range rep.Findings {
			b.WriteString(f.Signature + " " + strconv.Itoa(f.Count) + " " + strconv.Itoa(int(f.Seed)) + "\n")
		}
		b.WriteString(strconv.Itoa(rep.Scenarios) + " scenarios " + strconv.Itoa(rep.Events) + " events " + strconv.Itoa(rep.Rechecked) + " rechecked\n")
		return b.String()
	}
	one, two := run(1), run(2)
	if one != two {
		t.Errorf("findings differ between one and two workers:\n%s\n%s", one, two)
	}
	if n := strings.Count(one, "\n"); n != 4 {
		t.Errorf("want 3 findings and the counts, got:\n%s", one)
	}
}

// healing is an engine that leaves a spinner after a cancel until fixed
// is set, and is correct from then on (as one that fails only under load).
func healing(fixed *atomic.Bool) func() harness.Engine {
	return func() harness.Engine {
		if fixed.Load() {
			return planted.Reference()
		}
		return planted.CancelLeavesSpinner()
	}
}

// TestFlakyFindingIsNotABug: an engine that is broken while the seeds
// run and correct afterwards (as one that fails only under load) gives
// findings whose repros pass when checked again on a fresh engine: each is
// reported flaky, with what happened, and the run is not OK.
func TestFlakyFindingIsNotABug(t *testing.T) {
	var fixed atomic.Bool
	camp := campaign.Campaign{Seeds: 20, Sim: sim.Options{Faults: fault.List{fault.Cancel}},
		Progress: func(done, total, _ int) { fixed.Store(done == total) }}
	eng := healing(&fixed)
	rep, err := camp.Run(eng)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) == 0 {
		t.Fatal("the broken engine failed no seed")
	}
	for _, f := range rep.Findings {
		if !strings.Contains(f.Flaky, "passed") {
			t.Errorf("finding %q: flaky %q, want it reported flaky because its repro passed again", f.Signature, f.Flaky)
		}
	}
	if rep.OK() || len(rep.Flaky()) != len(rep.Findings) {
		t.Errorf("OK %v with %d flaky of %d findings: want not OK, every finding flaky", rep.OK(), len(rep.Flaky()), len(rep.Findings))
	}
}

// TestRacyNoShrink: without shrinking, a new finding is still checked
// again on a fresh engine; in a Racy campaign one that passes then is
// reported flaky and the run is OK, while one that fails again still
// fails it.
func TestRacyNoShrink(t *testing.T) {
	for _, tt := range []struct {
		name   string
		heals  bool
		wantOK bool
	}{
		{"flaky: reported, not counted", true, true},
		{"fails again: counted", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var fixed atomic.Bool
			eng := healing(&fixed)
			camp := campaign.Campaign{Seeds: 20, Sim: sim.Options{Faults: fault.List{fault.Cancel}}, NoShrink: true, Racy: true,
				Progress: func(done, total, _ int) { fixed.Store(tt.heals && done == total) }}
			rep, err := camp.Run(eng)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Findings) == 0 {
				t.Fatal("the broken engine failed no seed")
			}
			for _, f := range rep.Findings {
				if f.Shrunk != nil {
					t.Errorf("finding %q was shrunk under NoShrink", f.Signature)
				}
				if got := f.Flaky != ""; got != tt.heals {
					t.Errorf("finding %q: flaky %q, want flaky %v", f.Signature, f.Flaky, tt.heals)
				}
			}
			line, failed := rep.Verdict()
			if rep.OK() != tt.wantOK || failed == tt.wantOK {
				t.Errorf("OK %v, verdict %q (failed %v): want OK %v", rep.OK(), line, failed, tt.wantOK)
			}
			if tt.heals && !strings.Contains(line, "flaky finding(s) not counted") {
				t.Errorf("verdict %q does not name the flaky findings it did not count", line)
			}
		})
	}
}

// TestRacyKnownClass: in a Racy campaign a finding whose signature the
// baseline does not list, but whose bug class it does, is reported as a
// known bug and does not fail the run; outside Racy it still fails it.
func TestRacyKnownClass(t *testing.T) {
	// The planted engine's findings say "running"; the baseline's
	// signatures say "pending": another signature of each bug class.
	base := &campaign.Baseline{Entries: []campaign.BaselineEntry{
		{Signature: "cancel: tool status interrupted → pending", Oracle: "model"},
		{Signature: "cancel: tool left pending", Oracle: "model"},
	}}
	for _, tt := range []struct {
		name   string
		racy   bool
		wantOK bool
	}{
		{"racy: a known bug", true, true},
		{"not racy: a new signature fails", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			camp := campaign.Campaign{Seeds: 20, Sim: sim.Options{Faults: fault.List{fault.Cancel}}, NoShrink: true,
				Racy: tt.racy, Baseline: base}
			rep, err := camp.Run(planted.CancelLeavesSpinner)
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Findings) == 0 {
				t.Fatal("the broken engine failed no seed")
			}
			for _, f := range rep.Findings {
				if f.Known || f.KnownClass != tt.racy {
					t.Errorf("finding %q (class %q): known %v, known class %v; want known class %v",
						f.Signature, f.Class, f.Known, f.KnownClass, tt.racy)
				}
			}
			line, failed := rep.Verdict()
			if rep.OK() != tt.wantOK || failed == tt.wantOK {
				t.Errorf("OK %v, verdict %q (failed %v): want OK %v", rep.OK(), line, failed, tt.wantOK)
			}
			if tt.racy && !strings.Contains(line, "new signature(s) of a known bug not counted") {
				t.Errorf("verdict %q does not name the new signatures of known bugs", line)
			}
			var table strings.Builder
			rep.WriteFindings(&table)
			if tt.racy && !strings.Contains(table.String(), "(known bug, new signature)") {
				t.Errorf("findings table does not mark them:\n%s", table.String())
			}
		})
	}
}
