package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolsim/toolsim/agent"
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// asAgent makes the test binary toolsim-agent when it is re-run as an
// engine (the benchmark's processes).
const asAgent = "TOOLSIM_AGENT_TEST_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(asAgent) != "" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestUsageAndSetupErrors: bad arguments, an unknown agent and an app
// npm ci never installed exit 2, each saying what to do.
func TestUsageAndSetupErrors(t *testing.T) {
	empty := t.TempDir()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no agent", nil, "usage: toolsim-agent --agent NAME"},
		{"unknown agent", []string{"--agent", "crush"}, `unknown agent "crush" (known: claude, codex, gemini, opencode)`},
		{"not installed", []string{"--agent", "codex", "--examples", empty},
			"codex (@openai/codex 0.169.0) is not installed at " + filepath.Join(empty, "codex/node_modules/.bin/codex") +
				": run npm ci --prefix " + filepath.Join(empty, "codex")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			if code := run(tt.args, strings.NewReader(""), &out, &errw); code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if !strings.Contains(errw.String(), tt.want) {
				t.Errorf("stderr %q, want it to say %q", errw.String(), tt.want)
			}
		})
	}
}

// TestContractsCarried: every trace a campaign sends inside an app's
// contract reaches the app (agent.Uncarried finds nothing), on the
// gates' seeds and more, while a --robustness campaign sends traces the
// boundary cannot carry, which the engine then fails on at once.
func TestContractsCarried(t *testing.T) {
	for _, name := range agent.Names() {
		t.Run(name, func(t *testing.T) {
			p, err := agent.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			features, err := sim.ParseFeatures(strings.Join(p.Features, ","))
			if err != nil {
				t.Fatal(err)
			}
			guarantees, err := contract.ParseNames(p.Contract)
			if err != nil {
				t.Fatal(err)
			}
			uncarried := 0
			for seed := uint64(0); seed < 300; seed++ {
				in := sim.Generate(seed, sim.Options{Faults: fault.Trace, Swarm: true, Features: features, Contract: guarantees})
				if u := agent.Uncarried(in.Events); u != nil {
					t.Fatalf("seed %d, inside the contract %v: %v", seed, p.Contract, u)
				}
				out := sim.Generate(seed, sim.Options{Faults: fault.Trace, Swarm: true, Features: features})
				if u := agent.Uncarried(out.Events); u != nil {
					t.Logf("robustness seed %d: %s", seed, u.Guarantee)
					uncarried++
				}
			}
			if uncarried == 0 {
				t.Errorf("no trace of 300 --robustness seeds was uncarried: the check finds nothing")
			}
		})
	}
}

// BenchmarkScenarios checks generated scenarios inside each app's
// contract and features, over the protocol as a campaign does, with one
// and two app processes (workers), and reports scenarios per second and
// the app's start-up time. Skipped for an app npm ci has not installed.
func BenchmarkScenarios(b *testing.B) {
	for _, name := range []string{"claude", "codex", "gemini", "opencode"} {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", name, workers), func(b *testing.B) { benchmarkAgent(b, name, workers) })
		}
	}
}

func benchmarkAgent(b *testing.B, name string, workers int) {
	examples, _ := filepath.Abs("../../examples")
	if _, err := os.Stat(filepath.Join(examples, name, "node_modules")); err != nil {
		b.Skipf("%s not installed (npm ci --prefix examples/%s): skipped", name, name)
	}
	b.Setenv(asAgent, "1")
	x := harness.External(os.Args[0], "--agent", name, "--examples", examples).
		WithOptions(engineproto.Options{Timeout: 90 * time.Second})
	defer x.Close()
	t0 := time.Now()
	info, err := x.Start()
	if err != nil {
		b.Fatal(err)
	}
	start := time.Since(t0)
	opts := harness.Declared(harness.Options{First: true}, info)
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for range workers {
		wg.Go(func() {
			for seed := next.Add(1) - 1; seed < int64(b.N); seed = next.Add(1) - 1 {
				sc := sim.Generate(uint64(seed), sim.Options{Faults: fault.Trace, Swarm: true, Features: opts.Features, Contract: opts.Contract.Guarantees})
				harness.CheckCase(x.New, harness.CaseOf(sc), opts)
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "scenarios/s")
	b.ReportMetric(start.Seconds(), "start-s")
}
