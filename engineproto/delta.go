package engineproto

import (
	"fmt"

	"github.com/toolsim/toolsim/timeline"
)

// timelines turns timeline replies, whole or delta, into timelines.
//
// Every reply gets a new *timeline.Timeline, but an item that did not
// change since the previous reply is the previous reply's *timeline.Item,
// shared. Each item carries a nonzero Version, unique within the Client,
// that changes exactly when the item changed (a new or different item gets
// a fresh one; an item the engine sent again unchanged keeps the old
// pointer and version). So the incremental renderer and the harness's
// per-item comparisons can skip unchanged items by pointer and version.
// Timelines returned by a Client are read-only: they share items and the
// diagnostics' backing array with each other.
type timelines struct {
	dec     timeline.Decoder
	prev    *timeline.Timeline
	version uint64
}

// empty makes the next delta relative to the empty timeline (after init,
// and for the replies to reset and reconstruct).
func (s *timelines) empty() { s.prev = &timeline.Timeline{} }

// stamp returns it, or the previous reply's item at i when it is the same.
func (s *timelines) stamp(i int, it *timeline.Item) *timeline.Item {
	if i < len(s.prev.Items) && s.prev.Items[i].Same(it) {
		return s.prev.Items[i]
	}
	s.version++
	it.Version = s.version
	return it
}

// full decodes a whole toolsim-timeline/1 object.
func (s *timelines) full(raw []byte) (*timeline.Timeline, error) {
	tl, err := s.dec.Timeline(raw)
	if err != nil {
		return nil, fmt.Errorf("the timeline does not decode: %w", err)
	}
	for i, it := range tl.Items {
		tl.Items[i] = s.stamp(i, it)
	}
	s.prev = tl
	return tl, nil
}

// delta applies a delta object to the previous timeline.
func (s *timelines) delta(raw []byte) (*timeline.Timeline, error) {
	tl, err := s.applyDelta(raw)
	if err != nil {
		return nil, fmt.Errorf("the delta does not apply: %w", err)
	}
	s.prev = tl
	return tl, nil
}

func (s *timelines) applyDelta(raw []byte) (*timeline.Timeline, error) {
	delta, err := s.dec.Delta(raw)
	if err != nil {
		return nil, err
	}
	if err := covers(len(s.prev.Items), delta.Len, len(delta.Items), func(k int) int { return delta.Items[k].Index }); err != nil {
		return nil, err
	}
	tl := &timeline.Timeline{Items: make([]*timeline.Item, delta.Len), Now: s.prev.Now}
	copy(tl.Items, s.prev.Items)
	if delta.HasNow {
		tl.Now = delta.Now
	}
	for _, di := range delta.Items {
		tl.Items[di.Index] = s.stamp(di.Index, di.Item)
	}
	// The previous timeline keeps its length, so appending in place beyond
	// it is invisible to it.
	tl.Diagnostics = append(s.prev.Diagnostics, delta.Diagnostics...)
	return tl, nil
}

// covers checks that a delta of n items over a timeline of prev items
// carries every item it adds (indexes prev to n-1); it carries count
// items, the k-th at index(k).
func covers(prev, n, count int, index func(k int) int) error {
	added := n - prev
	if added > count {
		return fmt.Errorf("len is %d but the previous timeline had %d items and the delta carries %d", n, prev, count)
	}
	if added <= 0 {
		return nil
	}
	// Which added items the delta carries: a bit each (no allocation for
	// the few items an event adds), a slice for more.
	var bits uint64
	var carried []bool
	if added > 64 {
		carried = make([]bool, added)
	}
	for k := range count {
		if i := index(k) - prev; i >= 0 && i < added {
			if carried != nil {
				carried[i] = true
			} else {
				bits |= 1 << i
			}
		}
	}
	for i := range added {
		if carried != nil && !carried[i] || carried == nil && bits&(1<<i) == 0 {
			return fmt.Errorf("len is %d but item %d is neither in the previous timeline (%d items) nor in the delta", n, prev+i, prev)
		}
	}
	return nil
}

// decodeTimeline reads a timeline reply, whole or delta.
func (c *Client) decodeTimeline(rep *Reply, what string) (*timeline.Timeline, *EngineError) {
	if rep.Type != TypeTimeline {
		return nil, c.broken(what, fmt.Sprintf("want a timeline reply, got %q", rep.Type))
	}
	var tl *timeline.Timeline
	var err error
	switch {
	case rep.Delta != nil && rep.Timeline != nil:
		return nil, c.broken(what, `a timeline reply with both "timeline" and "delta"`)
	case rep.Delta != nil && !c.Info.Has(CapDelta):
		return nil, c.broken(what, `a delta reply, but the engine did not declare the "delta" capability`)
	case rep.Delta != nil:
		tl, err = c.tls.delta(rep.Delta)
	case rep.Timeline != nil:
		tl, err = c.tls.full(rep.Timeline)
	default:
		return nil, c.broken(what, `a timeline reply with neither "timeline" nor "delta"`)
	}
	if err != nil {
		return nil, c.broken(what, err.Error())
	}
	return tl, nil
}
