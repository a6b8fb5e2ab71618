package campaign_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
)

// standings lists each finding as "signature [after X] [documented B]
// [by design]": what a baseline must remember of a run.
func standings(rep *campaign.Report) []string {
	var out []string
	for _, f := range rep.Findings {
		s := f.Signature
		if f.After != "" {
			s += " after " + f.After
		}
		if f.Documented != "" {
			s += " documented " + string(f.Documented)
		}
		if f.ByDesign {
			s += " by design"
		}
		out = append(out, s)
	}
	return out
}

// roundTrip writes b as a file and reads it back.
func roundTrip(t *testing.T, b *campaign.Baseline) *campaign.Baseline {
	t.Helper()
	var buf bytes.Buffer
	if err := b.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := campaign.ReadBaseline(&buf, "baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// TestBaselineRemembers: a baseline keeps the findings that do not count
// (seen only after another, documented behaviour) with their repros, so
// the same run with it shrinks none of them again and reports them with
// the same standing; the kept repro's replay stands in for the search.
func TestBaselineRemembers(t *testing.T) {
	for _, tt := range []struct {
		name    string
		engine  func() harness.Engine
		faults  fault.List
		declare contract.Contract
		notes   func(*campaign.Finding) bool
	}{
		{"seen only after another", withBugs(plantedBugs...), fault.All(), contract.Contract{},
			func(f *campaign.Finding) bool { return f.After != "" }},
		{"documented behaviour", approvalsOpenAfterTurn, fault.List{fault.MissingResult},
			contract.Contract{Documented: []contract.Behaviour{contract.OpenAfterTurn}},
			func(f *campaign.Finding) bool { return f.Documented != "" && !f.ByDesign }},
		{"behaviour by design", approvalsOpenAfterTurn, fault.List{fault.MissingResult},
			contract.Contract{ByDesign: []contract.Behaviour{contract.OpenAfterTurn}},
			func(f *campaign.Finding) bool { return f.Documented != "" && f.ByDesign }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			camp := campaign.Campaign{Seeds: 300, Workers: 2, Sim: sim.Options{Faults: tt.faults, Swarm: true}}
			camp.Check.Contract = tt.declare
			first, err := camp.Run(tt.engine)
			if err != nil {
				t.Fatal(err)
			}
			kept := 0
			for _, f := range first.Findings {
				if tt.notes(f) && f.Tests > 0 {
					kept++
				}
			}
			if kept == 0 {
				t.Fatalf("the first run shrank no finding of this standing: %q", standings(first))
			}
			camp.Baseline = roundTrip(t, campaign.BaselineOf(first, nil))
			again, err := camp.Run(tt.engine)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(standings(first), standings(again)); diff != "" {
				t.Errorf("findings with the baseline differ from those it was written from (-want +got):\n%s", diff)
			}
			for _, f := range again.Findings {
				if f.Tests > 0 || f.Shrunk == nil || !f.Known {
					t.Errorf("%q: %d shrink candidates tried, repro kept %v, known %v; want none tried, the kept repro, known",
						f.Signature, f.Tests, f.Shrunk != nil, f.Known)
				}
			}
			if !again.OK() || len(again.Fixed) > 0 {
				t.Errorf("with its baseline: OK %v, fixed %q; want OK, none fixed", again.OK(), again.Fixed)
			}
		})
	}
}

// TestBaselineNoticesChange: a finding kept as seen only after another
// that a seed shows first is shrunk again and counts; one whose kept repro
// no longer shows it is shrunk afresh.
func TestBaselineNoticesChange(t *testing.T) {
	camp := campaign.Campaign{Seeds: 300, Workers: 2, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	engine := withBugs(plantedBugs...)
	first, err := camp.Run(engine)
	if err != nil {
		t.Fatal(err)
	}
	base := campaign.BaselineOf(first, nil)
	after, counted := -1, -1
	classes := map[string]int{}
	for _, e := range base.Entries {
		if e.Kind == "" {
			classes[campaign.ClassOf(e.Signature)]++
		}
	}
	for i, e := range base.Entries {
		switch {
		case e.Kind == campaign.KindAfter && after < 0:
			after = i
		case e.Kind == "" && counted < 0 && classes[campaign.ClassOf(e.Signature)] == 1:
			counted = i // alone in its class: no other listed bug makes it known under Racy
		}
	}
	if after < 0 || counted < 0 {
		t.Fatalf("want a finding seen only after another and one that counts: %q", standings(first))
	}
	for _, mode := range []struct {
		name           string
		noShrink, racy bool
	}{{"newly first", false, false}, {"newly first, unshrunk", true, false}, {"newly first, racy", false, true}} {
		t.Run(mode.name, func(t *testing.T) {
			b := roundTrip(t, base)
			e := &b.Entries[counted]
			e.Kind, e.After = campaign.KindAfter, b.Entries[after].After
			camp := camp
			camp.Baseline, camp.NoShrink, camp.Racy = b, mode.noShrink, mode.racy
			rep, err := camp.Run(engine)
			if err != nil {
				t.Fatal(err)
			}
			f := findingOf(t, rep, e.Signature)
			if f.Tests == 0 && !mode.noShrink || f.After != "" || f.Known || f.KnownClass || rep.OK() {
				t.Errorf("%q: %d candidates tried, after %q, known %v, known class %v, run OK %v; want it shrunk again (unless unshrunk), first, new, the run failed",
					f.Signature, f.Tests, f.After, f.Known, f.KnownClass, rep.OK())
			}
		})
	}
	t.Run("unshrunk, an entry kept as a bug stays one", func(t *testing.T) {
		// A baseline written before kinds, or by an unshrunk run, lists as
		// a bug a signature whose repro shows it after another: an unshrunk
		// run (which cannot set such findings apart) keeps it a known bug.
		b := roundTrip(t, base)
		e := &b.Entries[after]
		e.Kind, e.After = "", ""
		camp := camp
		camp.Baseline, camp.NoShrink = b, true
		rep, err := camp.Run(engine)
		if err != nil {
			t.Fatal(err)
		}
		f := findingOf(t, rep, e.Signature)
		if f.After != "" || !f.Known || f.Flaky != "" || !rep.OK() {
			t.Errorf("%q: after %q, known %v, flaky %q, run OK %v; want a known bug, not set apart, the run OK",
				f.Signature, f.After, f.Known, f.Flaky, rep.OK())
		}
	})
	t.Run("kept repro no longer shows it", func(t *testing.T) {
		b := roundTrip(t, base)
		b.Entries[after].Repro = b.Entries[counted].Repro
		camp := camp
		camp.Baseline = b
		rep, err := camp.Run(engine)
		if err != nil {
			t.Fatal(err)
		}
		f := findingOf(t, rep, b.Entries[after].Signature)
		if f.Tests == 0 || f.After == "" || !rep.OK() {
			t.Errorf("%q: %d candidates tried, after %q, run OK %v; want it shrunk afresh, still after another, the run OK",
				f.Signature, f.Tests, f.After, rep.OK())
		}
	})
}

// findingOf returns rep's finding with signature sig.
func findingOf(t *testing.T, rep *campaign.Report, sig string) *campaign.Finding {
	t.Helper()
	for _, f := range rep.Findings {
		if f.Signature == sig {
			return f
		}
	}
	t.Fatalf("no finding %q among %q", sig, standings(rep))
	return nil
}

// TestReadBaselineKind: a baseline entry's standing is checked when read,
// and an error names the entry and the field.
func TestReadBaselineKind(t *testing.T) {
	for _, tt := range []struct {
		name, entry, want string
	}{
		{"unknown kind", `{"signature":"s","kind":"masked"}`, `findings[0] ("s"): kind "masked": want "after", "documented", "by-design" or "robustness"`},
		{"after without its signature", `{"signature":"s","kind":"after"}`, `findings[0] ("s"): kind "after" without the signature it comes after (field after)`},
		{"after without the kind", `{"signature":"s","after":"t"}`, `findings[0] ("s"): after "t" without kind "after"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := campaign.ReadBaseline(strings.NewReader(`{"toolsim_baseline":1,"findings":[`+tt.entry+`]}`), "b.json")
			if err == nil || !strings.Contains(err.Error(), "b.json: "+tt.want) {
				t.Errorf("error %v, want it to contain %q", err, "b.json: "+tt.want)
			}
		})
	}
}

// TestShrinkRuns: a finding of a per-event oracle costs at most one
// engine run per candidate, plus the check that confirms its repro: the
// candidates run only the stream's oracles, and the trace the shrinker
// starts from and the one it keeps are not checked twice. The counts do
// not depend on the workers.
func TestShrinkRuns(t *testing.T) {
	runs := func(workers int) []string {
		camp := campaign.Campaign{Seeds: 300, Workers: workers, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
		rep, err := camp.Run(withBugs(plantedBugs...))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range rep.Findings {
			if f.ShrunkBy.Signature != f.Signature {
				t.Errorf("%q (after %q): shrunk by %q, want its own violation", f.Signature, f.After, f.ShrunkBy.Signature)
			}
			if f.Runs == 0 || f.Runs > f.Tests+1 || !harness.StreamOracle(f.Violation.Oracle) {
				t.Errorf("%q (oracle %s): %d engine runs for %d candidates; want 1 to %d", f.Signature, f.Violation.Oracle, f.Runs, f.Tests, f.Tests+1)
			}
			out = append(out, fmt.Sprintf("%s: %d runs, %d candidates", f.Signature, f.Runs, f.Tests))
		}
		return out
	}
	if diff := cmp.Diff(runs(1), runs(2)); diff != "" {
		t.Errorf("engine runs per finding on 1 worker and on 2 (-1 +2):\n%s", diff)
	}
}

// TestBaselineOfKeepsAfterOnlyBehindKept: an entry seen only after another
// signature is kept only when that signature is kept too; otherwise a gate
// replaying its repro would meet the other signature first, unknown.
func TestBaselineOfKeepsAfterOnlyBehindKept(t *testing.T) {
	rep := &campaign.Report{Findings: []*campaign.Finding{
		{Signature: "a bug"},
		{Signature: "behind the bug", After: "a bug"},
		{Signature: "behind a flaky one", After: "flaky"},
		{Signature: "flaky", Flaky: "passed on a fresh engine"},
		{Signature: "behind nothing kept", After: "no seed showed this first"},
		{Signature: "behind one behind nothing", After: "behind nothing kept"},
	}}
	var got []string
	for _, e := range campaign.BaselineOf(rep, nil).Entries {
		got = append(got, e.Signature)
	}
	want := []string{"a bug", "behind the bug"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BaselineOf entries (-want +got):\n%s", diff)
	}
}
