package harness

import (
	"fmt"

	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// renderOracle checks §5.9 for engines that render incrementally with
// toolsim's renderer: an item whose Version did not move must still render
// as it did (render.Incremental keeps its text), so every change must come
// with a new version. It keeps what each compared item looked like and,
// when an item changed in the model's eyes or the engine's but kept its
// version, compares that with a fresh render. An item is kept as a copy
// and rendered only when it is compared stale (a render is a function of
// the item and the clock, so equal items render equally): rendering every
// compared item cost a fifth of an exhaustive run, whose items are
// compared at nearly every event. Copies are bigger than texts, so a trace
// with more than keptCopies items keeps texts, as before: the copies it
// kept so far are turned into their texts.
type renderOracle struct {
	opts  render.Options
	texts []renderedItem
	// compacted: every index below it holds a text, not a copy.
	compacted int
}

// keptCopies is how many items a trace may have for the oracle to keep
// copies.
var keptCopies = 1024

type renderedItem struct {
	item    *timeline.Item
	version uint64
	now     int64
	live    bool
	copy    *timeline.Item // the item as it was when kept, or nil
	text    string         // else its render when kept
}

func newRenderOracle() *renderOracle {
	return &renderOracle{opts: render.Options{Width: 80, Output: true}}
}

func (o *renderOracle) observe(p *pass, s *step) {
	for k := range s.pairs {
		pr := &s.pairs[k]
		if !pr.hadItem || pr.partial {
			continue // a group compared in part is rendered at checkpoints
		}
		for len(o.texts) <= pr.i {
			o.texts = append(o.texts, renderedItem{})
		}
		kept := &o.texts[pr.i]
		stale := kept.item == pr.item && pr.item.Version != 0 && kept.version == pr.item.Version &&
			(!kept.live || kept.now == s.tl.Now)
		fresh := "" // the item's render, once made
		if stale && (kept.copy == nil || !sameRendered(kept.copy, pr.item)) {
			was := kept.text
			if kept.copy != nil {
				was = render.Item(kept.copy, kept.now, o.opts) // the text it had when kept
			}
			if fresh = render.Item(pr.item, s.tl.Now, o.opts); was != fresh {
				p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleIncremental,
					Detail: fmt.Sprintf("after %s item %d changed but kept version %d: an incremental render shows it stale", describe(s.ev), pr.i, pr.item.Version),
					Diff:   fmt.Sprintf("- %q\n+ %q\n", was, fresh)})
			}
		}
		*kept = renderedItem{item: pr.item, version: pr.item.Version, now: s.tl.Now, live: pr.item.Live()}
		if len(o.texts) > keptCopies {
			// A long trace: its items are compared a few times each, and
			// a copy costs more memory than the text.
			if fresh == "" {
				fresh = render.Item(pr.item, s.tl.Now, o.opts)
			}
			kept.text = fresh
		} else {
			kept.copy = pr.item.Clone()
		}
	}
	if len(o.texts) > keptCopies {
		for ; o.compacted < len(o.texts); o.compacted++ {
			o.compact(&o.texts[o.compacted])
		}
	}
}

// compact replaces a kept copy with its render when kept.
func (o *renderOracle) compact(kept *renderedItem) {
	if kept.copy != nil {
		kept.text, kept.copy = render.Item(kept.copy, kept.now, o.opts), nil
	}
}

// sameRendered reports whether two items have every field a render reads
// equal: every JSON member (Item.Same) and Tool.Unfinished.
func sameRendered(a, b *timeline.Item) bool {
	if !a.Same(b) {
		return false
	}
	same := true
	for i, t := range a.Tools {
		same = same && sameUnfinished(t, b.Tools[i])
	}
	return same && sameUnfinished(a.Tool, b.Tool)
}

func sameUnfinished(a, b *timeline.Tool) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Unfinished != b.Unfinished {
		return false
	}
	for i, c := range a.Children {
		if !sameRendered(c, b.Children[i]) {
			return false
		}
	}
	return true
}
