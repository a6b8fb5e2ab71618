package main

import (
	"os"
	"slices"
	"strconv"
	"testing"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// TestScreenOraclesHoldOnTestPage drives browser/testdata/page, a page
// that draws each call's row as SPEC says (tools and cancels), through
// generated scenarios, and wants no screen oracle to fail: 100 seeds, or
// TOOLSIM_BROWSER_SEEDS (docs/browser.md runs 1,000).
func TestScreenOraclesHoldOnTestPage(t *testing.T) {
	if browser.ExecPath() == "" {
		t.Skip("chromium not installed (apt-get install -y chromium, or set $CHROMIUM): browser test skipped")
	}
	seeds := 100
	if s := os.Getenv("TOOLSIM_BROWSER_SEEDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("TOOLSIM_BROWSER_SEEDS=%q: %v", s, err)
		}
		seeds = n
	}
	b, err := browser.Start(browser.Options{Page: "../../browser/testdata/page"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	g, err := contract.ParseNames([]string{"calls-first", "one-result", "unique-ids", "nothing-late"})
	if err != nil {
		t.Fatal(err)
	}
	opts := harness.Options{Screen: true, NoGrouping: true, NoRender: true, Fields: []string{}, Contract: contract.Contract{Guarantees: g}}
	screens := []string{harness.OracleScreenOnce, harness.OracleScreenSettled, harness.OracleScreenFailure}
	newEngine := func() harness.Engine { return browser.NewEngine(b) }
	checked := 0
	for seed := range uint64(seeds) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.Trace, Swarm: true, Contract: g, Features: sim.FeatureList{sim.FeatureTools, sim.FeatureCancel}})
		c := harness.CaseOf(sc)
		if g.Check(c.Events) != nil {
			continue // outside the contract after all: not checked (counted below)
		}
		checked++
		for _, v := range harness.CheckCase(newEngine, c, opts) {
			if slices.Contains(screens, v.Oracle) {
				t.Fatalf("seed %d: %v", seed, v)
			}
		}
	}
	if checked < seeds/4 {
		t.Fatalf("only %d of %d seeds inside the page's contract", checked, seeds)
	}
	t.Logf("%d of %d seeds inside the contract checked: no screen oracle failed", checked, seeds)
}
