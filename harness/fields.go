package harness

import (
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// fields is which optional timeline fields an engine fills.
type fields struct {
	output, updates, errors, diagnostics, duration, summary bool
}

// fieldSet reads Options.Fields; nil means every field.
func fieldSet(names []string) fields {
	if names == nil {
		return fields{true, true, true, true, true, true}
	}
	has := func(n string) bool { return slices.Contains(names, n) }
	return fields{has("output"), has("update_seq"), has("error"), has("diagnostics"), has("duration_ms"), has("summary")}
}

// mask blanks the fields the engine does not fill, in place.
func (f fields) mask(rows []row) []row {
	for i := range rows {
		r := &rows[i]
		if !f.output {
			r.Output = ""
		}
		if !f.updates {
			r.Updates = 0
		}
		if !f.errors {
			r.Error = ""
		}
	}
	return rows
}

// compareReference compares the engine's timeline with the reference
// engine's after the same event, in the declared fields: the outline, and
// durations, summaries and diagnostics when declared.
func (c *checker) compareReference(ev *event.Event, ref Engine, got *timeline.Timeline) {
	if ev.Kind != endOfStream {
		ref.Apply(ev)
	}
	want := ref.Timeline()
	c.refRows = c.fields.mask(outlineItems(c.refRows[:0], want.Items, 0, c.fields.extra))
	c.refGot = c.fields.mask(outlineItems(c.refGot[:0], got.Items, 0, c.fields.extra))
	gotRows := c.refGot
	if !sameRows(c.refRows, gotRows) {
		c.found = append(c.found, Violation{Seq: ev.Seq, Oracle: OracleReference,
			Detail: fmt.Sprintf("after %s the engine differs from the reference engine (-reference +engine)", describe(ev)), Diff: rowDiff(c.refRows, gotRows)})
		return
	}
	if c.fields.diagnostics {
		if w, g := diagList(want.Diagnostics, true), diagList(got.Diagnostics, true); !slices.Equal(w, g) {
			c.found = append(c.found, Violation{Seq: ev.Seq, Oracle: OracleReference,
				Detail: fmt.Sprintf("after %s the diagnostics differ from the reference engine's (-reference +engine)", describe(ev)), Diff: cmp.Diff(w, g)})
		}
	}
}

func (f fields) extra(t *timeline.Tool) string {
	s := ""
	if f.duration && t.Status.Terminal() {
		s += fmt.Sprintf("duration=%d ", t.DurationMS)
	}
	if f.summary {
		s += fmt.Sprintf("summary=%q", t.Summary)
	}
	return s
}
