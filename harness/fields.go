package harness

import (
	"fmt"
	"slices"

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

// mask blanks the fields the engine does not fill, in place, and flattens
// groups for an engine that never groups. It returns the rows kept.
func (f fields) mask(rows []row, noGrouping bool) []row {
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
		if !f.duration {
			r.EndT, r.Duration = 0, 0
		}
	}
	if noGrouping {
		return flatten(rows)
	}
	return rows
}

// extra is the reference comparison's Extra column: the summary, when
// declared.
func (f fields) extra(t *timeline.Tool) string {
	if f.summary {
		return fmt.Sprintf("summary=%q", t.Summary)
	}
	return ""
}
