package harness

import (
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/timeline"
)

// checkSnapshot compares the engine's whole timeline, when the driver took
// one after this step and it differs, with the timeline its deltas built
// (tl), which is what every oracle saw. A delta carries only the items
// whose version moved, so an item the engine changed in place under the
// same version is shown stale over the protocol, whatever it shows: that
// breaks the protocol, and is reported as an OracleEngine violation naming
// the first such item, with a (-deltas +snapshot) diff of its rows. Only
// the declared fields count, as in every comparison, and an item is
// reported once, at the first snapshot that shows it stale.
func (p *pass) checkSnapshot(ev *event.Event, tl *timeline.Timeline) {
	whole := p.d.staleWhole()
	if whole == nil {
		return
	}
	first, more := -1, 0
	var want, got []row
	for i := range max(len(tl.Items), len(whole.Items)) {
		var built, held *timeline.Item
		if i < len(tl.Items) {
			built = tl.Items[i]
		}
		if i < len(whole.Items) {
			held = whole.Items[i]
		}
		if built != nil && held != nil && built.Same(held) || p.staleSeen[built] {
			continue
		}
		w, g := p.snapshotRows(built), p.snapshotRows(held)
		if sameRows(w, g) {
			continue
		}
		if built != nil {
			p.staleSeen[built] = true
		}
		if first < 0 {
			first, want, got = i, w, g
		} else {
			more++
		}
	}
	if first >= 0 {
		key, name, what := staleRow(first, want, got)
		detail := fmt.Sprintf("at %s: item %d (%s) changed but no delta carried it: the engine's whole timeline (snapshot) differs from the one its deltas built", describe(ev), first, name)
		if more > 0 {
			detail += fmt.Sprintf(", and so do %d more items", more)
		}
		p.fail(Violation{Seq: ev.Seq, Oracle: OracleEngine, Detail: detail + " (-deltas +snapshot)",
			Diff: rowDiff(want, got), subjects: about(key, "not carried by a delta: "+what)})
	}
	if wd, gd := diagList(tl.Diagnostics, true), diagList(whole.Diagnostics, true); p.fields.diagnostics && !p.staleDiags && !slices.Equal(wd, gd) {
		p.staleDiags = true
		p.fail(Violation{Seq: ev.Seq, Oracle: OracleEngine,
			Detail: fmt.Sprintf("at %s: the diagnostics changed but no delta carried them: the engine's whole timeline (snapshot) reports others than its deltas built (-deltas +snapshot)", describe(ev)),
			Diff:   cmp.Diff(wd, gd), subjects: about(OracleDiagnostics, "not carried by a delta: diagnostics differ")})
	}
}

// snapshotRows outlines one top-level item (none for nil) in the fields
// compared.
func (p *pass) snapshotRows(it *timeline.Item) []row {
	if it == nil {
		return nil
	}
	return p.fields.mask(model.ItemRows(nil, it, 0, p.fields.extra), p.opts.NoGrouping)
}

// staleRow names the first row in which two outlines of item i differ: its
// subject key (as rowKey), its name in messages (`tool "a"`, or the row's
// kind), and what differs in it (rowWhat).
func staleRow(i int, want, got []row) (key, name, what string) {
	for k := range max(len(want), len(got)) {
		if k < len(want) && k < len(got) && model.Same(want[k], got[k]) {
			continue
		}
		r := want
		if k >= len(want) {
			r = got
		}
		key, name = rowKey(i, k, want, got), noun(r[k])
		if r[k].Tool() {
			name = fmt.Sprintf("tool %q", r[k].ID)
		}
		return key, name, rowWhat(want[k:], got[k:])
	}
	return fmt.Sprintf("item %d", i), "item", "rows differ"
}
