package timeline

import "strconv"

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
	d.reset(data)
	delta := &Delta{}
	err := d.whole(func() *DecodeError {
		var n int64
		err := d.fields(&deltaKeys, func(k int) *DecodeError {
			var err *DecodeError
			switch k {
			case 0:
				delta.Diagnostics, err = d.diagnostics()
			case 1:
				err = d.deltaItems(delta)
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
		return d.checkIndexes(delta)
	})
	if err != nil {
		return nil, err
	}
	return delta, nil
}

func (d *Decoder) deltaItems(delta *Delta) *DecodeError {
	if d.null() {
		return nil
	}
	return d.object(func(key []byte) *DecodeError {
		i, err := strconv.Atoi(string(key))
		if err != nil || i < 0 || strconv.Itoa(i) != string(key) {
			return d.fail("key %q is not an item index (0, 1, 2, …)", key)
		}
		it, derr := d.item()
		if derr != nil {
			return derr.in("[" + string(key) + "]")
		}
		delta.Items = append(delta.Items, IndexedItem{Index: i, Item: it})
		return nil
	})
}

// checkIndexes: every index below len, none twice.
func (d *Decoder) checkIndexes(delta *Delta) *DecodeError {
	increasing := true
	for k, di := range delta.Items {
		if di.Index >= delta.Len {
			return d.fail("index %d is not below len %d", di.Index, delta.Len).in("items")
		}
		increasing = increasing && (k == 0 || di.Index > delta.Items[k-1].Index)
	}
	if increasing {
		return nil
	}
	seen := make(map[int]bool, len(delta.Items))
	for _, di := range delta.Items {
		if seen[di.Index] {
			return d.fail("index %d appears twice", di.Index).in("items")
		}
		seen[di.Index] = true
	}
	return nil
}
