package engineproto

import (
	"fmt"
	"strconv"

	"github.com/toolsim/toolsim/internal/jsonscan"
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
	members []jsonscan.Member
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
	members, serr := jsonscan.Object(raw, s.members[:0])
	s.members = members
	if serr != nil {
		return nil, serr
	}
	var lenVal, itemsVal, diagVal, nowVal []byte
	for _, m := range members {
		switch string(m.Key) {
		case `"len"`:
			lenVal = m.Val
		case `"items"`:
			itemsVal = m.Val
		case `"diagnostics"`:
			diagVal = m.Val
		case `"now"`:
			nowVal = m.Val
		}
	}
	if lenVal == nil {
		return nil, &memberError{Member: "len", Reason: "missing required member"}
	}
	n, err := integer("len", lenVal, 0)
	if err != nil {
		return nil, err
	}
	if added := n - int64(len(s.prev.Items)); added > int64(len(raw)) {
		return nil, &memberError{Member: "len", Reason: fmt.Sprintf("%d: %d items more than the previous timeline, more than the delta can hold", n, added)}
	}
	tl := &timeline.Timeline{Items: make([]*timeline.Item, n), Now: s.prev.Now}
	copy(tl.Items, s.prev.Items)
	if nowVal != nil {
		if tl.Now, err = integer("now", nowVal, -1<<62); err != nil {
			return nil, err
		}
	}
	if err := s.items(tl, itemsVal); err != nil {
		return nil, err
	}
	for i := len(s.prev.Items); i < len(tl.Items); i++ {
		if tl.Items[i] == nil {
			return nil, &memberError{Member: "items", Reason: fmt.Sprintf("len is %d but item %d is neither in the previous timeline (%d items) nor in the delta", n, i, len(s.prev.Items))}
		}
	}
	return tl, s.diagnostics(tl, diagVal)
}

// items decodes the "items" object of a delta into tl.
func (s *timelines) items(tl *timeline.Timeline, val []byte) error {
	if val == nil || isNull(val) {
		return nil
	}
	if val[0] != '{' {
		return want("items", "an object of index → item", val)
	}
	members, _ := jsonscan.Object(val, nil)
	for _, m := range members {
		key, _ := jsonscan.String(m.Key)
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || strconv.Itoa(i) != key {
			return &memberError{Member: "items", Reason: fmt.Sprintf("key %q is not an item index (0, 1, 2, …)", key)}
		}
		if i >= len(tl.Items) {
			return &memberError{Member: "items", Reason: fmt.Sprintf("index %d is not below len %d", i, len(tl.Items))}
		}
		it, err := s.dec.Item(m.Val)
		if err != nil {
			return fmt.Errorf("member \"items\", item %d: %w", i, err)
		}
		tl.Items[i] = s.stamp(i, it)
	}
	return nil
}

// diagnostics appends the delta's diagnostics to the previous ones. The
// previous timeline keeps its length, so appending in place beyond it is
// invisible to it.
func (s *timelines) diagnostics(tl *timeline.Timeline, val []byte) error {
	tl.Diagnostics = s.prev.Diagnostics
	if val == nil || isNull(val) {
		return nil
	}
	ds, err := s.dec.Diagnostics(val)
	if err != nil {
		return fmt.Errorf("member \"diagnostics\": %w", err)
	}
	tl.Diagnostics = append(tl.Diagnostics, ds...)
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
