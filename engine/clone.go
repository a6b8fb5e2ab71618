package engine

import (
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// Clone returns an independent copy of the engine: applying events to one
// never changes the other. Players use it to keep checkpoints and compute
// any frame from the nearest one. Item versions are kept, so an
// incremental renderer's cache stays valid for the original only.
func (e *Engine) Clone() *Engine {
	cl := &cloner{items: map[*timeline.Item]*timeline.Item{}, tools: map[*timeline.Tool]*timeline.Tool{}, refs: map[*toolRef]*toolRef{}}
	if e.run != nil && e.run.container != &e.tl.Items {
		cl.wantChildren = e.run.container
	}
	c := &Engine{
		meta: e.meta, version: e.version, lastSeq: e.lastSeq, cancelled: e.cancelled, turnRole: e.turnRole,
		ids:   make(map[string]*slot, len(e.ids)),
		early: make(map[string][]*event.Event, len(e.early)),
	}
	c.tl = timeline.Timeline{Now: e.tl.Now, Diagnostics: slices.Clone(e.tl.Diagnostics), Items: cl.itemList(e.tl.Items)}
	for id, s := range e.ids {
		ns := &slot{last: cl.ref(s.last)}
		for _, r := range s.live {
			ns.live = append(ns.live, cl.ref(r))
		}
		c.ids[id] = ns
	}
	for _, r := range e.live {
		c.live = append(c.live, cl.ref(r))
	}
	for id, evs := range e.early {
		c.early[id] = slices.Clone(evs) // the events themselves are never changed
	}
	c.textOpen = cl.items[e.textOpen]
	if e.run != nil {
		c.run = &run{item: cl.items[e.run.item], container: &c.tl.Items}
		if cl.gotChildren != nil {
			c.run.container = cl.gotChildren
		}
	}
	return c
}

// cloner maps the original's pointers to the copy's.
type cloner struct {
	items map[*timeline.Item]*timeline.Item
	tools map[*timeline.Tool]*timeline.Tool
	refs  map[*toolRef]*toolRef

	// The open run's container when it is a tool's children: found while
	// copying, instead of searching every tool afterwards.
	wantChildren *[]*timeline.Item
	gotChildren  *[]*timeline.Item
}

func (cl *cloner) itemList(items []*timeline.Item) []*timeline.Item {
	if items == nil {
		return nil
	}
	out := make([]*timeline.Item, len(items))
	for i, it := range items {
		c := *it
		if it.Tool != nil {
			c.Tool = cl.tool(it.Tool)
		}
		if it.Tools != nil {
			c.Tools = make([]*timeline.Tool, len(it.Tools))
			for j, t := range it.Tools {
				c.Tools[j] = cl.tool(t)
			}
		}
		cl.items[it] = &c
		out[i] = &c
	}
	return out
}

// tool copies a tool and its children. Delegation values are replaced,
// never changed in place, so they are shared.
func (cl *cloner) tool(t *timeline.Tool) *timeline.Tool {
	c := *t
	c.Children = cl.itemList(t.Children)
	cl.tools[t] = &c
	if &t.Children == cl.wantChildren {
		cl.gotChildren = &c.Children
	}
	return &c
}

func (cl *cloner) ref(r *toolRef) *toolRef {
	if r == nil {
		return nil
	}
	if c, ok := cl.refs[r]; ok {
		return c
	}
	c := &toolRef{tool: cl.tools[r.tool], root: cl.items[r.root], resulted: r.resulted}
	cl.refs[r] = c
	return c
}
