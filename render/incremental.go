package render

import (
	"github.com/toolsim/toolsim/timeline"
)

// Incremental renders successive states of one growing timeline, keeping
// each top-level item's text and re-rendering an item only when its Version
// changed, or when it holds a live tool and the clock moved (a running
// tool's elapsed time is part of its row). Items with Version 0 (timelines
// decoded from JSON) are always re-rendered. The joined output is kept too
// and rebuilt only from the first item whose text changed. Its output always
// equals [Render] of the same timeline with the same options.
type Incremental struct {
	opts  Options
	cache []cached
	out   []byte // the joined output of the items in cache, then the legend
	items int    // the length of out without the legend
}

type cached struct {
	item    *timeline.Item
	version uint64
	now     int64
	live    bool
	text    string
	off     int // where text starts in out
}

// NewIncremental returns an incremental renderer.
func NewIncremental(opts Options) *Incremental {
	return &Incremental{opts: opts}
}

// Render returns the rendering of tl, reusing what it can.
func (r *Incremental) Render(tl *timeline.Timeline) string {
	return string(r.Bytes(tl))
}

// Bytes is Render without the copy: the returned slice is the renderer's
// own buffer, valid until the next call. Write it out; do not keep it.
func (r *Incremental) Bytes(tl *timeline.Timeline) []byte {
	dirty := min(len(r.cache), len(tl.Items)) // first item whose text changed
	r.cache = r.cache[:dirty]
	for i, it := range tl.Items {
		if i == len(r.cache) {
			r.cache = append(r.cache, cached{})
		}
		c := &r.cache[i]
		if c.fresh(it, tl.Now) {
			continue
		}
		text := Item(it, tl.Now, r.opts)
		if c.item != it || text != c.text {
			dirty = min(dirty, i)
		}
		*c = cached{item: it, version: it.Version, now: tl.Now, live: it.Live(), text: text, off: c.off}
	}
	r.rebuild(dirty)
	r.out = r.out[:r.items]
	if legend := Legend(tl, r.opts); legend != "" {
		if len(r.out) > 0 {
			r.out = append(r.out, '\n')
		}
		r.out = append(append(r.out, fit(legend, r.opts.width())...), '\n')
	}
	return r.out
}

// rebuild rewrites the joined output from item i onward.
func (r *Incremental) rebuild(i int) {
	r.out = r.out[:r.end(i)]
	for ; i < len(r.cache); i++ {
		if len(r.out) > 0 && r.cache[i].text != "" {
			r.out = append(r.out, '\n')
		}
		r.cache[i].off = len(r.out)
		r.out = append(r.out, r.cache[i].text...)
	}
	r.items = len(r.out)
}

// end is the length of the output of the first n cached items, whose
// offsets are still valid.
func (r *Incremental) end(n int) int {
	if n == 0 {
		return 0
	}
	last := r.cache[n-1]
	return last.off + len(last.text)
}

// fresh reports whether the cached text still shows it at time now.
func (c *cached) fresh(it *timeline.Item, now int64) bool {
	return c.item == it && it.Version != 0 && c.version == it.Version && (!c.live || c.now == now)
}
