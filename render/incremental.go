package render

import (
	"strings"

	"github.com/toolsim/toolsim/timeline"
)

// Incremental renders successive states of one growing timeline, keeping
// each top-level item's text and re-rendering an item only when its Version
// changed, or when it holds a live tool and the clock moved (a running
// tool's elapsed time is part of its row). Items with Version 0 (timelines
// decoded from JSON) are always re-rendered. Its output always equals
// [Render] of the same timeline with the same options.
type Incremental struct {
	opts  Options
	cache []cached
	b     strings.Builder
}

type cached struct {
	item    *timeline.Item
	version uint64
	now     int64
	live    bool
	text    string
}

// NewIncremental returns an incremental renderer.
func NewIncremental(opts Options) *Incremental {
	return &Incremental{opts: opts}
}

// Render returns the rendering of tl, reusing what it can.
func (r *Incremental) Render(tl *timeline.Timeline) string {
	if len(r.cache) > len(tl.Items) {
		r.cache = r.cache[:len(tl.Items)]
	}
	size := 0
	for i, it := range tl.Items {
		if i == len(r.cache) {
			r.cache = append(r.cache, cached{})
		}
		c := &r.cache[i]
		if !c.fresh(it, tl.Now) {
			*c = cached{item: it, version: it.Version, now: tl.Now, live: it.Live(), text: Item(it, tl.Now, r.opts)}
		}
		size += len(c.text) + 1
	}
	r.b.Reset()
	r.b.Grow(size)
	for i := range tl.Items {
		if i > 0 {
			r.b.WriteByte('\n')
		}
		r.b.WriteString(r.cache[i].text)
	}
	return r.b.String()
}

// fresh reports whether the cached text still shows it at time now.
func (c *cached) fresh(it *timeline.Item, now int64) bool {
	return c.item == it && it.Version != 0 && c.version == it.Version && (!c.live || c.now == now)
}
