package timeline

// Same reports whether two items encode to the same JSON: every member
// equal, children and delegation included, Version ignored (a nil and an
// empty list count as equal, except a delegation's steps, which encode as
// null and []). A decoder uses it to keep the previous *Item, and its
// Version, when a reply repeats an item unchanged.
func (it *Item) Same(o *Item) bool {
	if it == o {
		return true
	}
	if it == nil || o == nil || it.Batch != o.Batch || it.Interrupted != o.Interrupted || it.Kind != o.Kind ||
		it.Level != o.Level || it.Text != o.Text || !it.Tool.same(o.Tool) || len(it.Tools) != len(o.Tools) {
		return false
	}
	for i := range it.Tools {
		if !it.Tools[i].same(o.Tools[i]) {
			return false
		}
	}
	return true
}

func (t *Tool) same(o *Tool) bool {
	if t == o {
		return true
	}
	if t == nil || o == nil || t.Batch != o.Batch || t.DurationMS != o.DurationMS || t.EndT != o.EndT ||
		t.Error != o.Error || t.ID != o.ID || t.Meta != o.Meta || t.Name != o.Name || t.Output != o.Output ||
		t.Parent != o.Parent || t.StartT != o.StartT || t.Status != o.Status || t.Summary != o.Summary ||
		t.UpdateSeq != o.UpdateSeq || !t.Delegation.same(o.Delegation) || len(t.Children) != len(o.Children) {
		return false
	}
	for i := range t.Children {
		if !t.Children[i].Same(o.Children[i]) {
			return false
		}
	}
	return true
}

func (d *Delegation) same(o *Delegation) bool {
	if d == nil || o == nil {
		return d == o
	}
	if d.ActiveID != o.ActiveID || d.Mode != o.Mode || (d.Steps == nil) != (o.Steps == nil) || len(d.Steps) != len(o.Steps) {
		return false
	}
	for i := range d.Steps {
		if d.Steps[i] != o.Steps[i] {
			return false
		}
	}
	return true
}
