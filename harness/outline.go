package harness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/timeline"
)

// row is one line of an outline (see model.Row).
type row = model.Row

// sameRows compares outlines, ignoring the model's keys.
func sameRows(want, got []row) bool {
	return slices.EqualFunc(want, got, model.Same)
}

// sameShape reports whether two outlines show the same tools in the same
// places, whatever their states.
func sameShape(want, got []row) bool {
	return slices.EqualFunc(want, got, func(w, g row) bool {
		return w.Depth == g.Depth && w.Kind == g.Kind && w.Members == g.Members && w.ID == g.ID
	})
}

// engineRows outlines an engine's timeline.
func engineRows(dst []row, items []*timeline.Item) []row {
	return model.ItemsRows(dst, items, 0, nil)
}

// sameItems reports whether two item lists outline the same item by item,
// in the fields f and with durations as f says, using two small buffers
// instead of whole outlines. It is the fast path of a whole-timeline
// comparison: when it says false, callers compare whole outlines.
func (f fields) sameItems(a, b []*timeline.Item, noGrouping bool) bool {
	if len(a) != len(b) {
		return false
	}
	var ra, rb []row
	place := []int{0}
	for i := range a {
		if ga, gb := a[i], b[i]; ga.Kind == timeline.ItemToolGroup && gb.Kind == timeline.ItemToolGroup && len(ga.Tools) == len(gb.Tools) {
			// A group a tool at a time: a wide one would take two
			// whole outlines.
			for k := range ga.Tools {
				place[0] = k
				ra = f.mask(model.MemberRows(ra[:0], ga, place), noGrouping)
				rb = f.mask(model.MemberRows(rb[:0], gb, place), noGrouping)
				if !sameRows(ra, rb) {
					return false
				}
			}
			continue
		}
		ra = f.mask(model.ItemRows(ra[:0], a[i], 0, nil), noGrouping)
		rb = f.mask(model.ItemRows(rb[:0], b[i], 0, nil), noGrouping)
		if !sameRows(ra, rb) {
			return false
		}
	}
	return true
}

// flatten drops group header rows in place, moving their members up a
// level, and shows meta tools as ordinary tools: the outline an engine
// that never groups is compared by.
func flatten(rows []row) []row {
	out := rows[:0]
	var open []int // depths of the dropped group headers still enclosing
	for _, r := range rows {
		for len(open) > 0 && open[len(open)-1] >= r.Depth {
			open = open[:len(open)-1]
		}
		if r.Kind == "group" {
			open = append(open, r.Depth)
			continue
		}
		r.Depth -= len(open)
		if r.Kind == "meta" {
			r.Kind = "tool"
		}
		out = append(out, r)
	}
	return out
}

// rowDiff formats a (-want +got) diff of two outlines, one whole row per
// line: "-" rows only the model (or the first timeline) shows, "+" rows
// only the engine shows, and the rows both show for context.
func rowDiff(want, got []row) string {
	w, g := rowStrings(want), rowStrings(got)
	// lcs[i][j] is the longest common subsequence of w[i:] and g[j:].
	lcs := make([][]int, len(w)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(g)+1)
	}
	for i := len(w) - 1; i >= 0; i-- {
		for j := len(g) - 1; j >= 0; j-- {
			if w[i] == g[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var b strings.Builder
	i, j := 0, 0
	for i < len(w) || j < len(g) {
		switch {
		case i < len(w) && j < len(g) && w[i] == g[j]:
			fmt.Fprintf(&b, "  %s\n", w[i])
			i, j = i+1, j+1
		case j == len(g) || (i < len(w) && lcs[i+1][j] >= lcs[i][j+1]):
			fmt.Fprintf(&b, "- %s\n", w[i])
			i++
		default:
			fmt.Fprintf(&b, "+ %s\n", g[j])
			j++
		}
	}
	return b.String()
}

func rowStrings(rs []row) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.String()
	}
	return out
}

// window cuts two long outlines to the rows around their first
// difference, so that a failure in a long trace prints a readable diff.
func window(want, got []row) ([]row, []row) {
	const before, after = 8, 40
	first := 0
	for first < len(want) && first < len(got) && model.Same(want[first], got[first]) {
		first++
	}
	lo := max(first-before, 0)
	return want[lo:min(len(want), first+after)], got[lo:min(len(got), first+after)]
}

// classify names the oracle a model mismatch breaks: "once" when the tools
// shown are not the tools started, "groups" when their grouping or nesting
// differs, "pairing" when an event for id X changed another tool, and
// "model" otherwise (the right tool in the wrong state, or text, notices
// and separators that differ).
func classify(want, got []row, ev *event.Event) string {
	want, got = toolRows(want), toolRows(got)
	ids := func(rs []row) []string {
		var out []string
		for _, r := range rs {
			if r.Tool() {
				out = append(out, r.ID)
			}
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(ids(want), ids(got)) {
		return OracleOnce
	}
	if !sameShape(want, got) {
		return OracleGroups
	}
	if ev.ID != "" && toolEvent(ev.Kind) {
		for i := range want {
			if want[i].Tool() && !model.Same(want[i], got[i]) && want[i].ID != ev.ID {
				return OraclePairing
			}
		}
	}
	return OracleModel
}

// what names the kind of row that differs first, for messages.
func what(want, got []row) string {
	for i := range max(len(want), len(got)) {
		switch {
		case i >= len(want):
			return rowNoun(got[i])
		case i >= len(got) || !model.Same(want[i], got[i]):
			return rowNoun(want[i])
		}
	}
	return "the rows"
}

func rowNoun(r row) string {
	switch {
	case r.Tool():
		return fmt.Sprintf("tool %s", r.ID)
	case r.Kind == "group":
		return "a group"
	}
	return "the " + r.Kind + " item"
}

// toolRows keeps the tool and group rows of an outline.
func toolRows(rs []row) []row {
	out := make([]row, 0, len(rs))
	for _, r := range rs {
		if r.Tool() || r.Kind == "group" {
			out = append(out, r)
		}
	}
	return out
}

// diagList lists diagnostics for comparison. bad_details is left out: the
// model does not parse delegation payloads.
func diagList(ds []timeline.Diagnostic, withSeq bool) []string {
	var out []string
	for _, d := range ds {
		if d.Code == timeline.DiagBadDetails {
			continue
		}
		if withSeq {
			out = append(out, fmt.Sprintf("seq %d %s %s", d.Seq, d.Code, d.ID))
		} else {
			out = append(out, d.Code+" "+d.ID)
		}
	}
	slices.Sort(out)
	return out
}
