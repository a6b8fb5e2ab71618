package harness

import (
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/timeline"
)

// compareReference compares the engine's timeline with the reference
// engine's after the same event (--diff), in the declared fields: the
// outline with durations and summaries when declared, and the
// diagnostics. The items compared are this step's, every item at
// checkpoints and at the end.
func (p *pass) compareReference(ev *event.Event, got *timeline.Timeline, end bool) {
	if !end {
		p.ref.Apply(ev)
	}
	want := p.ref.Timeline()
	var w, g []row
	if end || len(want.Items) != len(got.Items) || p.step.full {
		w = model.ItemsRows(nil, want.Items, 0, p.fields.extra)
		g = model.ItemsRows(nil, got.Items, 0, p.fields.extra)
	} else {
		for _, i := range p.set {
			if i < len(want.Items) {
				w = model.ItemRows(w, want.Items[i], 0, p.fields.extra)
				g = model.ItemRows(g, got.Items[i], 0, p.fields.extra)
			}
		}
	}
	w, g = p.fields.mask(w, p.opts.NoGrouping), p.fields.mask(g, p.opts.NoGrouping)
	if !sameRows(w, g) {
		w, g = window(w, g)
		p.fail(Violation{Seq: ev.Seq, Oracle: OracleReference,
			Detail: fmt.Sprintf("after %s the engine differs from the reference engine (-reference +engine)", describe(ev)), Diff: rowDiff(w, g),
			subjects: about(OracleReference, "unlike the reference engine, "+rowWhat(w, g))})
		return
	}
	if p.fields.diagnostics {
		if w, g := diagList(want.Diagnostics, true), diagList(got.Diagnostics, true); !slices.Equal(w, g) {
			p.fail(Violation{Seq: ev.Seq, Oracle: OracleReference,
				Detail: fmt.Sprintf("after %s the diagnostics differ from the reference engine's (-reference +engine)", describe(ev)), Diff: cmp.Diff(w, g),
				subjects: about(OracleReference, "unlike the reference engine, "+diagWhat(w, g))})
		}
	}
}
