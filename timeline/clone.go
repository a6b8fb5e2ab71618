package timeline

import "slices"

// Clone returns a deep copy of it: the item, its tools, their children
// and delegations, so that changing the original in place does not reach
// the copy. Strings are shared (they never change); nil and empty slices
// stay as they were. Version is copied too.
func (it *Item) Clone() *Item {
	if it == nil {
		return nil
	}
	c := *it
	c.Tool = it.Tool.clone()
	if it.Tools != nil {
		c.Tools = make([]*Tool, len(it.Tools))
		for i, t := range it.Tools {
			c.Tools[i] = t.clone()
		}
	}
	return &c
}

func (t *Tool) clone() *Tool {
	if t == nil {
		return nil
	}
	c := *t
	if t.Children != nil {
		c.Children = make([]*Item, len(t.Children))
		for i, ch := range t.Children {
			c.Children[i] = ch.Clone()
		}
	}
	if t.Delegation != nil {
		d := *t.Delegation
		d.Steps = slices.Clone(t.Delegation.Steps)
		c.Delegation = &d
	}
	return &c
}
