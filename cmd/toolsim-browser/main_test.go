package main

import (
	"os"
	"strings"
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
// (examples/NAME/dist, built by npm run build) in one browser, as one
// campaign worker does: the live pass, the replay twice and the reordered
// replay, with the screen oracles. It reports scenarios/s for that one
// worker, per page.
func BenchmarkScenarios(b *testing.B) {
	for _, name := range []string{"assistant-ui", "ai-sdk-react"} {
		b.Run(name, func(b *testing.B) { benchmarkPage(b, name) })
	}
}

func benchmarkPage(b *testing.B, name string) {
	page := "../../examples/" + name + "/dist"
	if browser.ExecPath() == "" {
		b.Skip("chromium not installed: browser benchmark skipped")
	}
	if _, err := os.Stat(page + "/index.html"); err != nil {
		b.Skipf("%s not built (npm run --prefix examples/%s build): %v", page, name, err)
	}
	d, err := readDeclared(page)
	if err != nil {
		b.Fatal(err)
	}
	br, err := browser.Start(browser.Options{Page: page})
	if err != nil {
		b.Fatal(err)
	}
	defer br.Close()
	opts := harness.Options{Screen: true, NoGrouping: true, NoRender: true, Fields: []string{}, First: true}
	if opts.Contract.Guarantees, err = contract.ParseNames(d.Contract); err != nil {
		b.Fatal(err)
	}
	features, err := sim.ParseFeatures(strings.Join(d.Features, ","))
	if err != nil {
		b.Fatal(err)
	}
	newEngine := func() harness.Engine { return browser.NewEngine(br) }
	seed := uint64(0)
	for b.Loop() {
		sc := sim.Generate(seed, sim.Options{Faults: fault.Trace, Swarm: true, Features: features})
		harness.CheckCase(newEngine, harness.CaseOf(sc), opts)
		seed++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
}
