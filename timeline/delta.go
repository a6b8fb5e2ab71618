package timeline

import (
	"strconv"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// Delta is what changed between two timelines, as the engine protocol's
// delta capability sends it (docs/protocol.md): the new number of
// top-level items, the items replaced or added by index, the diagnostics
// appended, and the clock.
type Delta struct {
	Len         int
	Items       []IndexedItem // in the order given
	Diagnostics []Diagnostic
	Now         int64
	HasNow      bool // false: the clock did not change
}

// IndexedItem is an item of a delta and its index in the new timeline.
type IndexedItem struct {
	Index int
	Item  *Item
}

var deltaKeys = members{keys: []string{"diagnostics", "items", "len", "now"}, required: 1 << 2}

// Delta decodes a delta object in one pass: {"len":L, "items":{"<index>":
// item, ...}, "diagnostics":[...], "now":T}. Index keys are decimal without
// leading zeros, each below len and given once.
func (d *Decoder) Delta(data []byte) (*Delta, error) {
	delta := &Delta{}
	err := d.delta(data, delta, func(i int) *DecodeError {
		it, err := d.item()
		if err == nil {
			delta.Items = append(delta.Items, IndexedItem{Index: i, Item: it})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return delta, nil
}

// RawDelta is a delta whose items are checked for JSON syntax but not
// decoded: for a reader that needs only the last of many timelines.
type RawDelta struct {
	Len         int
	Items       []RawItem // in the order given
	Diagnostics []Diagnostic
	Now         int64
	HasNow      bool
}

// RawItem is an item of a RawDelta: its index and its JSON, a slice of
// the data given to DeltaRaw.
type RawItem struct {
	Index int
	JSON  []byte
}

// DeltaRaw is Delta without decoding the items: each is checked to be
// valid JSON and handed back as a slice of data. Decode the ones you keep
// with Item.
func (d *Decoder) DeltaRaw(data []byte) (*RawDelta, error) { return d.deltaRaw(data, false) }

// DeltaRawChecked is DeltaRaw for data already known to be well-formed
// JSON (a member of a line that passed jsonscan's check, as the engine
// protocol's replies do): the items are split without a second check. It
// must not be given anything else.
func (d *Decoder) DeltaRawChecked(data []byte) (*RawDelta, error) { return d.deltaRaw(data, true) }

func (d *Decoder) deltaRaw(data []byte, checked bool) (*RawDelta, error) {
	var delta Delta
	raw := &RawDelta{}
	err := d.delta(data, &delta, func(i int) *DecodeError {
		start := d.i
		var err *DecodeError
		if checked && d.i < len(d.b) {
			d.i = jsonscan.ValueEnd(d.b, d.i)
		} else {
			err = d.skip()
		}
		if err == nil {
			raw.Items = append(raw.Items, RawItem{Index: i, JSON: d.b[start:d.i]})
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	raw.Len, raw.Diagnostics, raw.Now, raw.HasNow = delta.Len, delta.Diagnostics, delta.Now, delta.HasNow
	return raw, nil
}

// delta reads a delta's members into delta, calling item for each entry of
// "items" (the decoder positioned at its value) after checking its key.
func (d *Decoder) delta(data []byte, delta *Delta, item func(i int) *DecodeError) error {
	d.reset(data)
	d.index = d.index[:0]
	return d.whole(func() *DecodeError {
		var n int64
		err := d.fields(&deltaKeys, func(k int) *DecodeError {
			var err *DecodeError
			switch k {
			case 0:
				delta.Diagnostics, err = d.diagnostics()
			case 1:
				err = d.deltaItems(item)
			case 2:
				if n, err = d.integer(); err == nil && (n < 0 || n > 1<<40) {
					err = d.fail("len %d is out of range", n)
				}
			case 3:
				delta.Now, err = d.integer()
				delta.HasNow = true
			}
			return err
		})
		if err != nil {
			return err
		}
		delta.Len = int(n)
		return d.checkIndexes(delta.Len)
	})
}

func (d *Decoder) deltaItems(item func(i int) *DecodeError) *DecodeError {
	if d.null() {
		return nil
	}
	return d.object(func(key []byte) *DecodeError {
		i, err := strconv.Atoi(string(key))
		if err != nil || i < 0 || strconv.Itoa(i) != string(key) {
			return d.fail("key %q is not an item index (0, 1, 2, …)", key)
		}
		if derr := item(i); derr != nil {
			return derr.in("[" + string(key) + "]")
		}
		d.index = append(d.index, i)
		return nil
	})
}

// checkIndexes: every index of the items read (d.index) below n, none
// twice.
func (d *Decoder) checkIndexes(n int) *DecodeError {
	increasing := true
	for k, i := range d.index {
		if i >= n {
			return d.fail("index %d is not below len %d", i, n).in("items")
		}
		increasing = increasing && (k == 0 || i > d.index[k-1])
	}
	if increasing {
		return nil
	}
	seen := make(map[int]bool, len(d.index))
	for _, i := range d.index {
		if seen[i] {
			return d.fail("index %d appears twice", i).in("items")
		}
		seen[i] = true
	}
	return nil
}
