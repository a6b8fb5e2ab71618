package toolsim_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/campaign"
)

// realEngines are the third-party engines under examples/, each with its
// contract.json, and its baseline and regressions under scenarios/.
var realEngines = []string{"ai-sdk", "ai-sdk-streamtext", "langgraph", "langgraph-graph", "openai-agents", "assistant-ui", "ai-sdk-react"}

// declared reads an engine's contract.json, as its adapter does, and
// checks that each behaviour it declares carries its evidence: the page
// and the sentence quoted for a documented one, a ref to code or a PR for
// one by design (contract.Declaration.Parse).
func declared(t *testing.T, name string) contract.Contract {
	t.Helper()
	path := filepath.Join("examples", name, "contract.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var file contract.Declaration
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	c, err := file.Parse()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return c
}

// robustnessGates reads the Makefile's REAL_FLAGS_<name> lines: the real
// engines whose gate runs with --robustness, so that their baseline also
// holds findings outside the contract.
func robustnessGates(t *testing.T) map[string]bool {
	t.Helper()
	data, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	gates := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		name, flags, ok := strings.Cut(line, ":=")
		name, found := strings.CutPrefix(strings.TrimSpace(name), "REAL_FLAGS_")
		if ok && found && slices.Contains(strings.Fields(flags), "--robustness") {
			gates[name] = true
		}
	}
	return gates
}

// TestRealEngineReprosInsideContracts: every baseline repro and every
// regression of each real engine (and each of its documented behaviour) is
// inside the contract the engine declares, and every robustness
// regression outside it: the findings
// toolsim reports by default are inputs the library's real upstream sends.
// An engine whose gate runs with --robustness (the Makefile's
// REAL_FLAGS_<name>) may have baseline repros outside its contract, and
// so may an entry kept as a robustness case (kind "robustness").
func TestRealEngineReprosInsideContracts(t *testing.T) {
	gates := robustnessGates(t)
	if !gates["ai-sdk"] {
		t.Errorf("the Makefile's REAL_FLAGS_ai-sdk does not pass --robustness: read %v", gates)
	}
	for _, name := range realEngines {
		t.Run(name, func(t *testing.T) {
			c := declared(t, name)
			if len(c.Guarantees) == 0 {
				t.Fatalf("examples/%s/contract.json declares no guarantee", name)
			}
			path := filepath.Join("scenarios", name, "baseline.json")
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			b, err := campaign.ReadBaseline(f, path)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range b.Entries {
				if e.Repro == nil {
					t.Errorf("%s: %q has no repro", path, e.Signature)
					continue
				}
				if br := c.Guarantees.Check(e.Repro.Events); br != nil && !gates[name] && e.Kind != campaign.KindRobustness {
					t.Errorf("%s: the repro of %q is outside the contract: %s", path, e.Signature, br)
				}
			}
			for _, dir := range []string{"", "documented", "by-design", "robustness", "recipe"} {
				files, _ := filepath.Glob(filepath.Join("scenarios", name, dir, "*.jsonl"))
				for _, file := range files {
					br := c.Guarantees.Check(readTrace(t, file))
					switch {
					case dir != "robustness" && br != nil:
						t.Errorf("%s is outside the contract (%s): move it to scenarios/%s/robustness/", file, br, name)
					case dir == "robustness" && br == nil:
						t.Errorf("%s is inside the contract: it is not a robustness case", file)
					}
				}
			}
		})
	}
}

// readTrace reads a canonical trace file's events.
func readTrace(t *testing.T, path string) []event.Event {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, evs, err := event.ReadAll(f, event.ReaderOptions{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return evs
}
