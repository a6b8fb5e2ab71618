package engine

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// place puts a new tool in the timeline: under its parent if it has one,
// into the open group when grouping rules allow, else as a new item.
func (e *Engine) place(ref *toolRef, ev *event.Event) {
	container, root := &e.tl.Items, (*timeline.Item)(nil)
	if ev.Parent != "" {
		if p := e.parentRef(ev.Parent); p != nil {
			container, root = &p.tool.Children, p.root
		} else {
			e.diag(ev.Seq, timeline.DiagUnknownParent, ev.ID)
		}
	}
	t := ref.tool
	if t.Meta {
		// Meta tools never join a group, and do not end the run either.
		it := &timeline.Item{Kind: timeline.ItemMetaTool, Tool: t, Batch: t.Batch}
		e.push(container, it)
		ref.root = rootOr(root, it)
		e.bump(ref.root)
		return
	}
	it := e.joinable(container, t)
	if it == nil {
		it = &timeline.Item{Kind: timeline.ItemTool, Tool: t, Batch: t.Batch}
		e.push(container, it)
	} else if it.Kind == timeline.ItemTool {
		it.Kind, it.Tools, it.Tool = timeline.ItemToolGroup, []*timeline.Tool{it.Tool, t}, nil
	} else {
		it.Tools = append(it.Tools, t)
	}
	ref.root = rootOr(root, it)
	e.bump(it)
	e.bump(ref.root)
	e.run = &run{container: container, item: it}
}

func rootOr(root, it *timeline.Item) *timeline.Item {
	if root != nil {
		return root
	}
	return it
}

// parentRef finds the tool a child runs under: the oldest live tool with
// that id, else the most recent one.
func (e *Engine) parentRef(id string) *toolRef {
	s := e.ids[id]
	switch {
	case s == nil:
		return nil
	case len(s.live) > 0:
		return s.live[0]
	default:
		return s.last
	}
}

// joinable returns the item a new tool joins, or nil. With a batch id, the
// tool joins the item just before it in the same container when that item
// has the same batch (meta tools of the batch in between are skipped).
// Without one, it joins the item of the current run of consecutive
// tool_start events in the same container.
func (e *Engine) joinable(container *[]*timeline.Item, t *timeline.Tool) *timeline.Item {
	if t.Batch == "" {
		if r := e.run; r != nil && r.container == container && r.item.Batch == "" {
			return r.item
		}
		return nil
	}
	items := *container
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		switch {
		case it.Kind == timeline.ItemMetaTool && it.Batch == t.Batch:
			continue
		case (it.Kind == timeline.ItemTool || it.Kind == timeline.ItemToolGroup) && it.Batch == t.Batch:
			return it
		}
		return nil
	}
	return nil
}
