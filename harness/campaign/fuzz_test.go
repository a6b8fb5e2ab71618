package campaign_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

func TestFuzzReferenceIsClean(t *testing.T) {
	campaign.Fuzz(t, planted.Reference, campaign.Seeds(300), campaign.Workers(2))
}

// fakeTB records a fatal message; Fatal/Fatalf unwind with a sentinel.
type fakeTB struct {
	testing.TB
	msg string
}

type fatal struct{}

func (f *fakeTB) Helper()             {}
func (f *fakeTB) Logf(string, ...any) {}
func (f *fakeTB) Name() string        { return "TestPlanted/spinner" }
func (f *fakeTB) Fatal(args ...any) {
	f.msg = fmt.Sprint(args...)
	panic(fatal{})
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(fatal{})
}

func runFuzz(newEngine func() harness.Engine, opts ...campaign.FuzzOption) (msg string) {
	tb := &fakeTB{}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(fatal); !ok {
				panic(r)
			}
			msg = tb.msg
		}
	}()
	campaign.Fuzz(tb, newEngine, opts...)
	return ""
}

// TestFuzzReportsShrunkFailure: a planted bug fails Fuzz with the seed, the
// oracle, the shrunk trace and the reproduce command.
func TestFuzzReportsShrunkFailure(t *testing.T) {
	t.Chdir(t.TempDir())
	msg := runFuzz(planted.CancelLeavesSpinner, campaign.Seeds(200))
	seed := regexp.MustCompile(`(?m)^seed (\d+):`).FindStringSubmatch(msg)
	if seed == nil {
		t.Fatalf("no seed in the failure message:\n%s", msg)
	}
	saved := filepath.Join("testdata", "toolsim", "TestPlanted_spinner", "seed-"+seed[1]+".min.jsonl")
	for _, want := range []string{"after seq", "shrunk ", `"kind":"cancel"`, "saved " + saved, "rerun this seed (from the module's root): go test . -run '^TestPlanted$/^spinner$' -toolsim.seed=" + seed[1] + "\n"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure message lacks %q:\n%s", want, msg)
		}
	}
	f, err := os.Open(saved)
	if err != nil {
		t.Fatalf("the shrunk trace was not saved: %v", err)
	}
	defer f.Close()
	_, evs, err := event.ReadAll(f, event.ReaderOptions{Name: saved})
	if err != nil || len(harness.Check(planted.CancelLeavesSpinner, evs)) == 0 {
		t.Errorf("the saved trace does not fail the planted engine (%v)", err)
	}
}

func TestFuzzFailsOnUntestedFaults(t *testing.T) {
	msg := runFuzz(planted.Reference, campaign.Seeds(2), campaign.Faults(fault.All()...))
	if !strings.Contains(msg, "never injected") {
		t.Errorf("want a coverage failure, got %q", msg)
	}
}

// TestFuzzKnownFindings: a baseline file written from a campaign makes
// Fuzz pass on the same engine, and fail on an engine with one more bug.
func TestFuzzKnownFindings(t *testing.T) {
	t.Chdir(t.TempDir())
	camp := campaign.Campaign{Seeds: 200, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	rep, err := camp.Run(planted.CancelLeavesSpinner)
	if err != nil || len(rep.Findings) == 0 {
		t.Fatalf("the planted bug was not found (%v)", err)
	}
	f, err := os.Create("baseline.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := campaign.BaselineOf(rep, nil).Encode(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if msg := runFuzz(planted.CancelLeavesSpinner, campaign.Seeds(200), campaign.KnownFindings("baseline.json")); msg != "" {
		t.Errorf("with its own baseline, Fuzz failed:\n%s", msg)
	}
	msg := runFuzz(planted.UpgradeLosesFirst, campaign.Seeds(200), campaign.KnownFindings("baseline.json"))
	if !strings.Contains(msg, "findings not in the baseline") {
		t.Errorf("another bug passed the baseline: %q", msg)
	}
	if msg := runFuzz(planted.Reference, campaign.KnownFindings("missing.json")); !strings.Contains(msg, "KnownFindings") {
		t.Errorf("a missing baseline file: got %q", msg)
	}
}
