package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no page", nil, "usage: toolsim-browser --page DIR"},
		{"extra argument", []string{"--page", "x", "y"}, "usage: toolsim-browser --page DIR"},
		{"bad contract.json", []string{"--page", "testdata/badcontract"}, "testdata/badcontract/contract.json"},
		{"documented without evidence", []string{"--page", "testdata/noevidence"},
			`testdata/noevidence/contract.json: evidence: documented behaviour "open-after-turn"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errw strings.Builder
			if code := run(tt.args, strings.NewReader(""), &out, &errw); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errw.String(), tt.want) {
				t.Errorf("stderr %q, want it to name %q", errw.String(), tt.want)
			}
		})
	}
}

// BenchmarkScenarios checks generated scenarios against each example page
// (examples/NAME/dist, built by npm run build) as a campaign does: each
// worker has its own browser, and each scenario is the live pass, the
// replay twice and the reordered replay, with the screen oracles.
// workers=1 is one campaign worker; workers=2 is the two-worker
// rate (fuzz --workers 2). It reports scenarios/s over all workers.
func BenchmarkScenarios(b *testing.B) {
	for _, name := range []string{"assistant-ui", "ai-sdk-react"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", name, workers), func(b *testing.B) { benchmarkPage(b, name, workers) })
		}
	}
}

// benchmarkPage runs b.N seeds on the page over workers browsers.
func benchmarkPage(b *testing.B, name string, workers int) {
	page := "../../examples/" + name + "/dist"
	if browser.ExecPath() == "" {
		b.Skip("chromium not installed: browser benchmark skipped")
	}
	if _, err := os.Stat(page + "/index.html"); err != nil {
		b.Skipf("%s not built (npm run --prefix examples/%s build): %v", page, name, err)
	}
	opts, features := benchOptions(b, page)
	brs := make([]*browser.Browser, workers)
	for i := range brs {
		br, err := browser.Start(browser.Options{Page: page})
		if err != nil {
			b.Fatal(err)
		}
		defer br.Close()
		brs[i] = br
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for _, br := range brs {
		wg.Go(func() {
			newEngine := func() harness.Engine { return browser.NewEngine(br) }
			for seed := next.Add(1) - 1; seed < int64(b.N); seed = next.Add(1) - 1 {
				sc := sim.Generate(uint64(seed), sim.Options{Faults: fault.Trace, Swarm: true, Features: features})
				harness.CheckCase(newEngine, harness.CaseOf(sc), opts)
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
}

// benchOptions reads the page's declaration into the campaign's check
// options and features.
func benchOptions(b *testing.B, page string) (harness.Options, sim.FeatureList) {
	d, err := readDeclared(page)
	if err != nil {
		b.Fatal(err)
	}
	opts := harness.Options{Screen: true, NoGrouping: true, NoRender: true, Fields: []string{}, First: true}
	if opts.Contract.Guarantees, err = contract.ParseNames(d.Contract); err != nil {
		b.Fatal(err)
	}
	features, err := sim.ParseFeatures(strings.Join(d.Features, ","))
	if err != nil {
		b.Fatal(err)
	}
	return opts, features
}
