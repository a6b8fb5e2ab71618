package engine

import (
	"maps"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// Clone returns an independent copy of the engine: applying events to one
// never changes the other. Players use it to keep checkpoints and compute
// any frame from the nearest one.
//
// The copy shares the timeline's items and tools with the original: after
// a clone, neither engine changes a shared item or tool in place; each
// copies one (and the items and tools holding it) the first time an event
// changes it. A clone therefore costs the pairing index and a few slice
// headers, and the two engines together hold the timeline once plus what
// changed since. Clone changes the original's bookkeeping, so it must not
// run while another goroutine applies events to the original; the two
// engines may then be used on different goroutines. Item versions are
// kept, so an incremental renderer's cache stays valid for both.
func (e *Engine) Clone() *Engine {
	e.own.share()
	e.outputs = nil // the builders' arrays are the clone's too now (output.go)
	e.tl.Items = slices.Clip(e.tl.Items)
	e.tl.Diagnostics = slices.Clip(e.tl.Diagnostics)
	e.live = slices.Clip(e.live)
	c := &Engine{
		meta: e.meta, version: e.version, lastSeq: e.lastSeq, cancelled: e.cancelled, turnRole: e.turnRole,
		tl:       timeline.Timeline{Now: e.tl.Now, Diagnostics: e.tl.Diagnostics, Items: e.tl.Items},
		ids:      maps.Clone(e.ids),
		live:     e.live,
		early:    make(map[string][]*event.Event, len(e.early)),
		textOpen: e.textOpen,
		run:      e.run,
	}
	c.own.share()
	for id, evs := range e.early {
		c.early[id] = slices.Clone(evs) // the events themselves are never changed
	}
	return c
}

// owner records what an engine may change in place. An engine that was
// never cloned owns everything. Once cloned, it owns only the items and
// tools it made or copied since its last clone, and the top-level slice
// once it copied it. An item it owns lies in containers it owns: the
// items and tools holding it were made writable first.
type owner struct {
	cow   bool // the engine was cloned: check before changing
	spine bool // the timeline's top-level slice is this engine's own
	items map[*timeline.Item]struct{}
	tools map[*timeline.Tool]struct{}
	slots map[*slot]struct{}
}

// share forgets everything owned: it is now shared with a clone.
func (o *owner) share() {
	o.cow, o.spine = true, false
	o.items = map[*timeline.Item]struct{}{}
	o.tools = map[*timeline.Tool]struct{}{}
	o.slots = map[*slot]struct{}{}
}

func (o *owner) addSlot(s *slot) {
	if o.cow {
		o.slots[s] = struct{}{}
	}
}

func (o *owner) addItem(it *timeline.Item) {
	if o.cow {
		o.items[it] = struct{}{}
	}
}

func (o *owner) addTool(t *timeline.Tool) {
	if o.cow {
		o.tools[t] = struct{}{}
	}
}

func (o *owner) ownsItem(it *timeline.Item) bool {
	_, ok := o.items[it]
	return !o.cow || ok
}

func (o *owner) ownsTool(t *timeline.Tool) bool {
	_, ok := o.tools[t]
	return !o.cow || ok
}

// writableSlot returns the slot of id, copied first if shared, or nil.
func (e *Engine) writableSlot(id string) *slot {
	s := e.ids[id]
	if s == nil || !e.own.cow {
		return s
	}
	if _, ok := e.own.slots[s]; ok {
		return s
	}
	c := &slot{live: slices.Clone(s.live), last: s.last}
	e.ids[id] = c
	e.own.addSlot(c)
	return c
}

// items returns the items of parent's children, or the timeline's own.
func (e *Engine) items(parent *toolRef) []*timeline.Item {
	if parent == nil {
		return e.tl.Items
	}
	return e.tool(parent).Children
}

// tool returns the tool r locates.
func (e *Engine) tool(r *toolRef) *timeline.Tool {
	if !e.own.cow {
		return r.tool
	}
	it := e.items(r.parent)[r.item]
	if it.Tool != nil {
		return it.Tool
	}
	return it.Tools[r.pos]
}

// writableItems returns the container of parent's children (the
// timeline's top-level items when nil), copying what it shares first.
func (e *Engine) writableItems(parent *toolRef) *[]*timeline.Item {
	if parent != nil {
		return &e.writableTool(parent).Children
	}
	if !e.own.spine && e.own.cow {
		e.tl.Items = slices.Clone(e.tl.Items)
		e.own.spine = true
	}
	return &e.tl.Items
}

// writableItem returns item i of parent's children (of the top level when
// nil), copied first if shared. The copy has its own Tools slice.
func (e *Engine) writableItem(parent *toolRef, i int) *timeline.Item {
	it := e.items(parent)[i]
	if e.own.ownsItem(it) {
		return it
	}
	items := e.writableItems(parent)
	c := *it
	c.Tools = slices.Clone(it.Tools)
	(*items)[i] = &c
	e.own.addItem(&c)
	return &c
}

// writableTool returns the tool r locates, copied first if shared. The
// copy has its own Children slice.
func (e *Engine) writableTool(r *toolRef) *timeline.Tool {
	if t := e.tool(r); e.own.ownsTool(t) {
		return t
	}
	it := e.writableItem(r.parent, int(r.item))
	at := &it.Tool
	if it.Tool == nil {
		at = &it.Tools[r.pos]
	}
	c := **at
	c.Children = slices.Clone(c.Children)
	*at = &c
	e.own.addTool(&c)
	return &c
}

// bumpRoot marks the top-level item holding r as changed.
func (e *Engine) bumpRoot(r *toolRef) {
	e.bump(e.writableItem(nil, r.root()))
}
