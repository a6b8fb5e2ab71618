package harness_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/internal/race"
	"github.com/toolsim/toolsim/sim"
)

// shownPerCase is how many of a case's violations TestViolationsUnchanged
// writes out in full; the count covers the rest.
const shownPerCase = 4

// TestViolationsUnchanged is the guard of the speed work (issue 28): what
// every oracle reports, byte for byte, on a fixed set of seeds and engines
// — each mutant, an engine that changes items in place (short and long
// traces), the reference engine with toolsim's own log round trip, and
// planted bugs behind the protocol — is compared with
// golden/harness/TestViolationsUnchanged.golden. The golden was written
// by this test on e38e759, before any of the speed changes; a change that
// makes checking faster must leave it as it is. Regenerate only for a
// change meant to alter what toolsim reports (go test ./harness -run
// TestViolationsUnchanged -update), and read the diff.
func TestViolationsUnchanged(t *testing.T) {
	if race.Enabled {
		t.Skip("single-goroutine and heavy: make test runs it in its second step, without -race")
	}
	var b strings.Builder
	gen := sim.Options{Faults: fault.All(), Swarm: true}
	for _, m := range planted.Mutants {
		writeSeeds(&b, "mutant "+m.Name, m.Engine, m.Opts, gen, 12)
	}
	inPlaceEngine := func() harness.Engine { return &inPlace{e: engine.New(engine.Options{})} }
	writeSeeds(&b, "in place", inPlaceEngine, harness.Options{}, gen, 12)
	writeSeeds(&b, "reference, self-check", reference, harness.Options{SelfCheck: true}, gen, 40)
	// Over 1,024 items the render oracle keeps texts: split only the texts
	// of turns past that.
	long := splitTexts(longTrace(12_000), 600)
	writeCase(&b, "in place, long trace", harness.CheckWith(inPlaceEngine, long, harness.Options{}))
	for _, name := range []string{"reference", "last-item", "spinner", "upgrade"} {
		x := external(t, name)
		writeSeeds(&b, "protocol "+name, x.New, harness.Options{}, gen, 12)
	}
	g := goldie.New(t, goldie.WithFixtureDir("../golden/harness"), goldie.WithNameSuffix(".golden"))
	// go-cmp's diffs put a no-break space or a space at random in their
	// indentation, so that nobody goldens them as they are.
	g.Assert(t, t.Name(), []byte(strings.ReplaceAll(b.String(), "\u00a0", " ")))
}

// splitTexts sends each text of evs after the first `from` in two halves,
// renumbered: the second half grows an item that is no longer live, which
// an engine changing items in place shows stale.
func splitTexts(evs []event.Event, from int) []event.Event {
	var out []event.Event
	texts := 0
	for _, ev := range evs {
		if ev.Kind == event.KindText {
			texts++
		}
		if ev.Kind != event.KindText || texts <= from {
			out = append(out, ev)
			continue
		}
		half := len(ev.Text) / 2
		first, second := ev, ev
		first.Text, second.Text = ev.Text[:half], ev.Text[half:]
		out = append(out, first, second)
	}
	for i := range out {
		out[i].Seq = int64(i + 1)
	}
	return out
}

// writeSeeds checks seeds 0..n-1 of gen against an engine and writes what
// each reported.
func writeSeeds(b *strings.Builder, name string, eng func() harness.Engine, opts harness.Options, gen sim.Options, n int) {
	for seed := range uint64(n) {
		c := harness.CaseOf(sim.Generate(seed, gen))
		writeCase(b, fmt.Sprintf("%s, seed %d", name, seed), harness.CheckCase(eng, c, opts))
	}
}

// writeCase writes a case's violation count and its first few in full.
func writeCase(b *strings.Builder, name string, found []harness.Violation) {
	fmt.Fprintf(b, "## %s: %d violations\n", name, len(found))
	for i, v := range found {
		if i == shownPerCase {
			break
		}
		fmt.Fprintf(b, "%s\nsignature: %s\n", v.String(), v.Signature)
	}
}
