package harness

import (
	"bytes"
	"cmp"
	"fmt"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
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

// WithOptions sets the oracle options (meta tool names, render checks).
func WithOptions(o Options) FuzzOption { return func(c *Campaign) { c.Check = o } }

// Fuzz runs a seeded swarm campaign against engines from newEngine and
// fails t on the lowest failing seed, printing the violation, the shrunk
// regression trace (ready to save under a ReplayDir directory) and how to
// reproduce it. A campaign that leaves a fault class untested fails too.
//
//	func TestMyEngine(t *testing.T) {
//		harness.Fuzz(t, func() harness.Engine { return myengine.New() }, harness.Seeds(1000))
//	}
func Fuzz(t testing.TB, newEngine func() Engine, opts ...FuzzOption) {
	t.Helper()
	c := Campaign{Seeds: 1000, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	for _, o := range opts {
		o(&c)
	}
	rep, err := c.Run(newEngine)
	if err != nil {
		t.Fatalf("harness.Fuzz: %v", err)
	}
	if f := rep.Failure; f != nil {
		t.Fatal(describeFailure(f, c))
	}
	if len(rep.Missing) > 0 {
		t.Fatalf("harness.Fuzz: %d scenarios never injected %s: raise Seeds or narrow Faults", rep.Scenarios, rep.Missing.String())
	}
}

// describeFailure formats a campaign failure for a test log.
func describeFailure(f *Failure, c Campaign) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "seed %d: %s\n", f.Seed, f.Violation)
	if f.Shrunk != nil {
		fmt.Fprintf(&b, "\nshrunk %d → %d events (%d candidates); the regression trace:\n", len(f.Case.Events), len(f.Shrunk.Events), f.Tests)
		h := Header(SourceSim, f.Seed, CaseMeta(TraceMeta{Faults: c.Sim.Faults.String(), Swarm: c.Sim.Swarm, Oracle: f.Violation.Oracle}, f.Shrunk))
		if err := event.WriteAll(&b, h, f.Shrunk.Events); err != nil {
			fmt.Fprintf(&b, "(cannot encode: %v)\n", err)
		}
		fmt.Fprintf(&b, "\nit fails: %s\n", f.ShrunkBy)
	}
	fmt.Fprintf(&b, "\nreproduce the scenario: toolsim sim --seed %d --faults %s --tools %d --turns %d", f.Seed, c.Sim.Faults.String(), cmp.Or(c.Sim.Tools, 4), cmp.Or(c.Sim.Turns, 3))
	if c.Sim.Swarm {
		b.WriteString(" --swarm")
	}
	b.WriteString("\nsave the regression trace under your ReplayDir directory to keep it checked\n")
	return b.String()
}
