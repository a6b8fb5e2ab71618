package view

import (
	"github.com/toolsim/toolsim/timeline"
)

// finish orders the lanes as the final timeline shows the tools (children
// right after their parent), brackets the groups, and maps discovery
// indexes to display indexes.
func (b *builder) finish() {
	b.m.Lines = b.lines.out
	order := make([]*lane, 0, len(b.tools))
	placed := make(map[*lane]bool, len(b.tools))
	var walk func(items []*timeline.Item, parent, depth int)
	walk = func(items []*timeline.Item, parent, depth int) {
		for _, it := range items {
			tools := it.Tools
			if it.Tool != nil {
				tools = []*timeline.Tool{it.Tool}
			}
			from := len(order)
			for _, t := range tools {
				l := b.byPtr[t]
				if l == nil || placed[l] {
					continue
				}
				placed[l] = true
				l.Parent, l.Depth, l.Batch, l.Meta = parent, depth, Clean(t.Batch), t.Meta
				order = append(order, l)
				walk(t.Children, len(order)-1, depth+1)
			}
			if it.Kind == timeline.ItemToolGroup && len(order) > from {
				b.m.Groups = append(b.m.Groups, group{Batch: Clean(it.Batch), From: from, To: len(order) - 1})
			}
		}
	}
	walk(b.eng.Timeline().Items, -1, 0)
	for _, l := range b.tools { // tools no longer in the final timeline
		if !placed[l] {
			l.Parent = -1
			order = append(order, l)
		}
	}
	display := make([]int, len(b.tools))
	for i, l := range order {
		display[l.disc] = i
	}
	for i, t := range b.m.EvTool {
		if t >= 0 {
			b.m.EvTool[i] = display[t]
		}
	}
	for i := range b.m.Diags {
		if t := b.m.Diags[i].Tool; t >= 0 {
			b.m.Diags[i].Tool = display[t]
		}
	}
	cut := clamp(toolBudget/max(len(order), 1)/3, minCut, maxCut)
	for _, l := range order {
		l.fill(cut)
		if ev := &b.evs[min(l.Start, len(b.evs)-1)]; ev.Kind == "tool_start" && ev.ID == l.ptr.ID {
			l.Args = Clean(cutString(string(ev.Args), cut))
		}
	}
	b.m.Tools = order
	// The page iterates these: encode them as [] rather than null.
	b.m.Groups = nonNil(b.m.Groups)
	b.m.Diags = nonNil(b.m.Diags)
	b.m.Kinds = nonNil(b.m.Kinds)
	b.m.Lines = nonNil(b.m.Lines)
	b.m.Items = nonNil(b.m.Items)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// fill copies the tool's final texts, cut to n bytes each, and its status
// changes.
func (l *lane) fill(n int) {
	t := l.ptr
	l.ID, l.Name, l.Status = Clean(t.ID), Clean(t.Name), string(t.Status)
	l.Output = Clean(cutString(t.Output, n))
	l.Error = Clean(cutString(t.Error, n))
	l.Summary = Clean(cutString(t.Summary, n))
	l.Changes = make([]any, 0, 2*len(l.changes))
	for _, c := range l.changes {
		l.Changes = append(l.Changes, c.step, string(c.status))
	}
	if l.Changes == nil {
		l.Changes = []any{}
	}
}
