package harness

import (
	"fmt"
	"maps"
	"slices"
)

// modelOracle compares the engine's items with the model's after every
// event, and names the oracle a difference breaks (once, groups, pairing
// or model). It also checks §5.4 (every started tool appears exactly
// once) whenever the outlines differ and at the end.
type modelOracle struct {
	reported int // the step (pass.n) last reported
}

func (o *modelOracle) observe(p *pass, s *step) {
	if !s.differ || o.reported == p.n {
		return
	}
	o.reported = p.n // once a step, whichever round found it
	want := p.fields.mask(p.model.AllRows(nil), p.opts.NoGrouping)
	got := p.fields.mask(engineRows(nil, s.tl.Items), p.opts.NoGrouping)
	o.once(p, s, got)
	w, g := window(want, got)
	v := Violation{Seq: s.ev.Seq, Oracle: classify(want, got, s.ev),
		Detail: fmt.Sprintf("after %s %s differs from the model", describe(s.ev), what(w, g)), Diff: rowDiff(w, g),
		subjects: stepSubjects(s)}
	if len(v.subjects) == 0 { // the difference is in no item this step compared
		v.subjects = about(v.Oracle, rowWhat(w, g))
	}
	p.fail(v)
}

// once: each id is shown as many times as it was started. Messages come in
// sorted id order.
func (o *modelOracle) once(p *pass, s *step, got []row) {
	shown := map[string]int{}
	for _, r := range got {
		if r.Tool() {
			shown[r.ID]++
		}
	}
	started := p.model.Starts()
	if maps.Equal(shown, started) {
		return
	}
	for _, id := range slices.Sorted(maps.Keys(started)) {
		if n := started[id]; shown[id] != n {
			p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleOnce, subjects: about("tool "+id, onceWhat(n, shown[id])),
				Detail: fmt.Sprintf("tool %s started %d times, shown %d times", id, n, shown[id])})
		}
	}
	for _, id := range slices.Sorted(maps.Keys(shown)) {
		if started[id] == 0 {
			p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleOnce, subjects: about("tool "+id, "tool shown but never started"),
				Detail: fmt.Sprintf("tool %s shown %d times but never started", id, shown[id])})
		}
	}
}

// onceWhat is the signature's WHAT for a tool started n times and shown
// shown times.
func onceWhat(n, shown int) string {
	switch {
	case shown == 0:
		return "started tool not shown"
	case shown < n:
		return "a call of a reused id not shown"
	}
	return "tool shown more times than started"
}
