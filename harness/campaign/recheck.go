package campaign

import (
	"errors"
	"fmt"
	"hash/fnv"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/selfcheck"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// recheck generates the scenario at index i again and replays it through a
// second engine: the trace bytes and the final render must hash the same.
func (r *run) recheck(i int64, sc *sim.Scenario) (found []harness.Violation) {
	seed := r.first + uint64(i)
	defer func() {
		if p := recover(); p != nil {
			found = []harness.Violation{{Seq: lastSeq(sc.Events), Oracle: harness.OraclePanic, Detail: fmt.Sprintf("replaying for the nondeterminism check: %v", p)}}
		}
	}()
	again, _ := r.scenario(i)
	last := lastSeq(sc.Events)
	if a, b := hashTrace(sc.Events), hashTrace(again.Events); a != b {
		return []harness.Violation{{Seq: last, Oracle: harness.OracleToolsim, Detail: (&harness.ToolsimFault{Part: "simulator",
			Detail: fmt.Sprintf("seed %d generated different traces (hash %016x, then %016x)", seed, a, b)}).Error()}}
	}
	tlA, errA := finalOf(r.newEngine, sc.Events)
	tlB, errB := finalOf(r.newEngine, again.Events)
	if err := errors.Join(errA, errB); err != nil {
		v := harness.Violation{Seq: last, Oracle: harness.OracleEngine, Detail: "replaying for the nondeterminism check: " + err.Error()}
		if f := new(harness.ToolsimFault); errors.As(err, &f) {
			v.Oracle = harness.OracleToolsim
		}
		return []harness.Violation{v}
	}
	a, b := r.c.hashRender(tlA), r.c.hashRender(tlB)
	switch {
	case !selfcheck.Equal(tlA, tlB):
		return []harness.Violation{{Seq: last, Oracle: harness.OracleNondeterminism,
			Detail: fmt.Sprintf("seed %d rendered differently on a second run (hash %016x, then %016x): the engine gave another final timeline", seed, a, b)}}
	case a != b:
		// The engine gave one timeline twice: the render is toolsim's.
		return []harness.Violation{{Seq: last, Oracle: harness.OracleToolsim, Detail: (&harness.ToolsimFault{Part: "renderer",
			Detail: fmt.Sprintf("seed %d: one final timeline rendered two ways (hash %016x, then %016x)", seed, a, b)}).Error()}}
	}
	return nil
}

func hashTrace(evs []event.Event) uint64 {
	h := fnv.New64a()
	var buf []byte
	for i := range evs {
		buf = event.AppendEvent(buf[:0], &evs[i])
		h.Write(buf)
	}
	return h.Sum64()
}

// finalOf replays evs on a fresh engine and returns its final timeline.
func finalOf(newEngine func() harness.Engine, evs []event.Event) (*timeline.Timeline, error) {
	return (&harness.Case{Events: evs}).Final(newEngine)
}

// hashRender hashes the render of a timeline.
func (c *Campaign) hashRender(tl *timeline.Timeline) uint64 {
	draw := render.Render
	if c.render != nil {
		draw = c.render
	}
	h := fnv.New64a()
	h.Write([]byte(draw(tl, render.Options{Width: 80, Output: true})))
	return h.Sum64()
}

// generate is the simulator (sim.Generate, unless a test planted another).
func (c *Campaign) generate(seed uint64, o sim.Options) *sim.Scenario {
	if c.gen != nil {
		return c.gen(seed, o)
	}
	return sim.Generate(seed, o)
}
