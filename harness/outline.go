package harness

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// row is one line of an outline: the tool-bearing part of a timeline, in
// display order, with what the model can judge. A group contributes a
// header row (Kind "group", Members set) and then its members one level
// deeper; a tool's children follow it two levels deeper.
type row struct {
	Depth   int
	Kind    string // tool, group, meta
	Members int    // group rows: how many tools
	ID      string
	Name    string
	Status  timeline.Status
	Updates int
	Output  string
	Error   string
	Extra   string // --diff only: declared duration and summary

	// Non-tool items (user, assistant, thinking, notice, separator).
	Text        string
	Level       string
	Interrupted bool

	key int // model rows: the tool's place in start order (not compared)
}

// sameRows compares outlines, ignoring the model's keys.
func sameRows(want, got []row) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		w := want[i]
		w.key = got[i].key
		if w != got[i] {
			return false
		}
	}
	return true
}

// tool reports whether the row shows a tool (not a group header or text).
func (r row) tool() bool { return r.Kind == "tool" || r.Kind == "meta" }

func (r row) String() string {
	ind := strings.Repeat("  ", r.Depth)
	switch {
	case r.Kind == "group":
		return fmt.Sprintf("%sgroup of %d", ind, r.Members)
	case !r.tool():
		s := fmt.Sprintf("%s%s %q", ind, r.Kind, abbreviate(r.Text))
		if r.Level != "" {
			s += " level=" + r.Level
		}
		if r.Interrupted {
			s += " interrupted"
		}
		return s
	}
	s := fmt.Sprintf("%s%s %s %s %s updates=%d", ind, r.Kind, r.ID, r.Name, r.Status, r.Updates)
	if r.Error != "" {
		s += fmt.Sprintf(" error=%q", r.Error)
	}
	if r.Output != "" {
		s += fmt.Sprintf(" output=%q", abbreviate(r.Output))
	}
	if r.Extra != "" {
		s += " " + r.Extra
	}
	return s
}

func abbreviate(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:18] + "…" + s[len(s)-18:]
}

// engineRows outlines an engine's timeline.
func engineRows(dst []row, items []*timeline.Item, depth int) []row {
	return outlineItems(dst, items, depth, nil)
}

// outlineItems outlines items; extra, when set, fills each tool row's
// Extra column.
func outlineItems(dst []row, items []*timeline.Item, depth int, extra func(*timeline.Tool) string) []row {
	for _, it := range items {
		switch it.Kind {
		case timeline.ItemTool, timeline.ItemMetaTool:
			if it.Tool == nil {
				continue
			}
			dst = toolRow(dst, it.Tool, depth, it.Kind == timeline.ItemMetaTool, extra)
		case timeline.ItemToolGroup:
			dst = append(dst, row{Depth: depth, Kind: "group", Members: len(it.Tools)})
			for _, t := range it.Tools {
				dst = toolRow(dst, t, depth+1, false, extra)
			}
		default:
			dst = append(dst, row{Depth: depth, Kind: string(it.Kind), Text: it.Text, Level: it.Level, Interrupted: it.Interrupted})
		}
	}
	return dst
}

func toolRow(dst []row, t *timeline.Tool, depth int, meta bool, extra func(*timeline.Tool) string) []row {
	kind := "tool"
	if meta {
		kind = "meta"
	}
	r := row{Depth: depth, Kind: kind, ID: t.ID, Name: t.Name, Status: t.Status, Updates: t.UpdateSeq, Output: t.Output, Error: t.Error}
	if extra != nil {
		r.Extra = extra(t)
	}
	dst = append(dst, r)
	return outlineItems(dst, t.Children, depth+2, extra)
}

// rows outlines the model.
func (m *model) rows(dst []row, items []*mItem, depth int) []row {
	for _, it := range items {
		switch {
		case it.kind == mOther:
			dst = append(dst, row{Depth: depth, Kind: string(it.what), Text: it.text, Level: it.level, Interrupted: it.interrupted})
		case it.kind == mTools && len(it.tools) > 1:
			dst = append(dst, row{Depth: depth, Kind: "group", Members: len(it.tools)})
			for _, t := range it.tools {
				dst = m.toolRow(dst, t, depth+1, false)
			}
		default:
			dst = m.toolRow(dst, it.tools[0], depth, it.kind == mMeta)
		}
	}
	return dst
}

func (m *model) toolRow(dst []row, t *mTool, depth int, meta bool) []row {
	kind := "tool"
	if meta {
		kind = "meta"
	}
	dst = append(dst, row{Depth: depth, Kind: kind, ID: t.id, Name: t.name, Status: t.status, Updates: t.updates, Output: t.output, Error: t.err, key: t.n})
	return m.rows(dst, t.children, depth+2)
}

// sameShape reports whether two outlines show the same tools in the same
// places, whatever their states.
func sameShape(want, got []row) bool {
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		w, g := want[i], got[i]
		if w.Depth != g.Depth || w.Kind != g.Kind || w.Members != g.Members || w.ID != g.ID {
			return false
		}
	}
	return true
}

// rowDiff formats a (-want +got) diff of two outlines.
func rowDiff(want, got []row) string {
	str := func(rs []row) []string {
		out := make([]string, len(rs))
		for i, r := range rs {
			out[i] = r.String()
		}
		return out
	}
	return cmp.Diff(str(want), str(got))
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
			if r.tool() {
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
			if want[i].tool() && !sameRows(want[i:i+1], got[i:i+1]) && want[i].ID != ev.ID {
				return OraclePairing
			}
		}
	}
	return OracleModel
}

// toolRows keeps the tool and group rows of an outline.
func toolRows(rs []row) []row {
	out := make([]row, 0, len(rs))
	for _, r := range rs {
		if r.tool() || r.Kind == "group" {
			out = append(out, r)
		}
	}
	return out
}

func toolEvent(k event.Kind) bool {
	return k == event.KindToolProgress || k == event.KindToolDone || k == event.KindPermission
}

// diagKey orders diagnostics for comparison. bad_details is left out: the
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
