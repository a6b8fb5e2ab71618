package model

import (
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/timeline"
)

// Row is one line of an outline: what the model can judge of one item or
// tool, in display order. A group contributes a header row (Kind "group",
// Members set) and then its members one level deeper; a tool's children
// follow it two levels deeper.
type Row struct {
	Depth   int
	Kind    string // tool, group, meta, or an item kind (user, assistant, …)
	Members int    // group rows: how many tools
	ID      string
	Name    string
	Status  timeline.Status
	Updates int
	Output  string
	Error   string
	// Terminal tools: when they ended and how long they ran.
	EndT     int64
	Duration int64
	// Extra holds what only another engine can judge (the summary, for
	// the reference comparison).
	Extra string

	// Non-tool items (user, assistant, thinking, notice, separator).
	Text        string
	Level       string
	Interrupted bool

	// Key is a model tool row's place in start order; engine rows carry
	// -1. It is never compared.
	Key int
}

// Same reports whether two rows show the same thing (keys aside).
func Same(a, b Row) bool {
	a.Key = b.Key
	return a == b
}

// Tool reports whether the row shows a tool (not a group header or text).
func (r Row) Tool() bool { return r.Kind == "tool" || r.Kind == "meta" }

// String formats the row for (-want +got) diffs.
func (r Row) String() string {
	ind := strings.Repeat("  ", r.Depth)
	switch {
	case r.Kind == "group":
		return fmt.Sprintf("%sgroup of %d", ind, r.Members)
	case !r.Tool():
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
	if r.EndT != 0 || r.Duration != 0 {
		s += fmt.Sprintf(" end_t=%d duration=%d", r.EndT, r.Duration)
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

// Rows appends the outline of top-level item i.
func (m *Model) Rows(dst []Row, i int) []Row {
	return m.itemRows(dst, m.top[i], 0)
}

// AllRows appends the outline of every top-level item.
func (m *Model) AllRows(dst []Row) []Row {
	for _, it := range m.top {
		dst = m.itemRows(dst, it, 0)
	}
	return dst
}

// GroupRows appends part of the outline of top-level item i, a group:
// its header row and the rows of its tools at the places given (with what
// runs under them).
func (m *Model) GroupRows(dst []Row, i int, places []int) []Row {
	it := m.top[i]
	dst = append(dst, Row{Kind: "group", Members: len(it.tools), Key: -1})
	for _, k := range places {
		dst = m.toolRow(dst, it.tools[k], 1, false)
	}
	return dst
}

func (m *Model) itemRows(dst []Row, it *item, depth int) []Row {
	switch {
	case it.kind == other:
		return append(dst, Row{Depth: depth, Kind: string(it.what), Text: it.text, Level: it.level, Interrupted: it.interrupted, Key: -1})
	case it.kind == tools && len(it.tools) > 1:
		dst = append(dst, Row{Depth: depth, Kind: "group", Members: len(it.tools), Key: -1})
		for _, t := range it.tools {
			dst = m.toolRow(dst, t, depth+1, false)
		}
		return dst
	}
	return m.toolRow(dst, it.tools[0], depth, it.kind == metaItem)
}

func (m *Model) toolRow(dst []Row, t *tool, depth int, meta bool) []Row {
	kind := "tool"
	if meta {
		kind = "meta"
	}
	r := Row{Depth: depth, Kind: kind, ID: t.id, Name: t.name, Status: t.status, Updates: t.updates, Output: t.output, Error: t.err, Key: t.n}
	if t.status.Terminal() {
		r.EndT, r.Duration = t.endT, t.duration
	}
	dst = append(dst, r)
	for _, c := range t.children {
		dst = m.itemRows(dst, c, depth+2)
	}
	return dst
}

// ItemRows appends the outline of an engine's item, in the same form as
// the model's. extra, when set, fills each tool row's Extra column.
func ItemRows(dst []Row, it *timeline.Item, depth int, extra func(*timeline.Tool) string) []Row {
	switch it.Kind {
	case timeline.ItemTool, timeline.ItemMetaTool:
		if it.Tool == nil {
			return dst
		}
		return engineTool(dst, it.Tool, depth, it.Kind == timeline.ItemMetaTool, extra)
	case timeline.ItemToolGroup:
		dst = append(dst, Row{Depth: depth, Kind: "group", Members: len(it.Tools), Key: -1})
		for _, t := range it.Tools {
			dst = engineTool(dst, t, depth+1, false, extra)
		}
		return dst
	}
	return append(dst, Row{Depth: depth, Kind: string(it.Kind), Text: it.Text, Level: it.Level, Interrupted: it.Interrupted, Key: -1})
}

// MemberRows appends part of the outline of an engine's top-level tool
// group, in the form of Model.GroupRows: its header row and the rows of
// its tools at the places given that it has.
func MemberRows(dst []Row, it *timeline.Item, places []int) []Row {
	dst = append(dst, Row{Kind: "group", Members: len(it.Tools), Key: -1})
	for _, k := range places {
		if k < len(it.Tools) {
			dst = engineTool(dst, it.Tools[k], 1, false, nil)
		}
	}
	return dst
}

// ItemsRows outlines a list of engine items.
func ItemsRows(dst []Row, items []*timeline.Item, depth int, extra func(*timeline.Tool) string) []Row {
	for _, it := range items {
		dst = ItemRows(dst, it, depth, extra)
	}
	return dst
}

func engineTool(dst []Row, t *timeline.Tool, depth int, meta bool, extra func(*timeline.Tool) string) []Row {
	kind := "tool"
	if meta {
		kind = "meta"
	}
	r := Row{Depth: depth, Kind: kind, ID: t.ID, Name: t.Name, Status: t.Status, Updates: t.UpdateSeq, Output: t.Output, Error: t.Error, Key: -1}
	if t.Status.Terminal() {
		r.EndT, r.Duration = t.EndT, t.DurationMS
	}
	if extra != nil {
		r.Extra = extra(t)
	}
	dst = append(dst, r)
	return ItemsRows(dst, t.Children, depth+2, extra)
}
