package claudetranscript

// placeResults puts back in time each result Claude Code hung under its
// own call. Claude Code 2.1.328 writes the calls of one response as a
// chain (each tool_use record under the one before) and each result under
// its own call's record: a result of an earlier call is a leaf beside the
// next call, so the depth-first walk, which follows a node's children in
// file order, reaches it only after everything under the next call, the
// rest of the conversation included. A leaf result record whose parent
// has other children moves to just before the first record after its
// parent that is later than it (timestamps; none: it stays).
func (c *chains) placeResults(index map[string]int) {
	for p := 0; p < len(c.main); p++ {
		r := c.main[p]
		if !c.leafResult(r, index) {
			continue
		}
		parent, q := c.recs[index[r.parent]], p-1
		for q >= 0 && c.main[q] != parent {
			q--
		}
		if q < 0 {
			continue
		}
		for j := q + 1; j < p; j++ {
			if o := c.main[j]; o.hasTS && o.ts.After(r.ts) {
				copy(c.main[j+1:p+1], c.main[j:p])
				c.main[j] = r
				break
			}
		}
	}
}

// leafResult reports whether r is a user record holding only tool results,
// with no record under it, hung under a record that has other children.
func (c *chains) leafResult(r *record, index map[string]int) bool {
	if r.typ != "user" || r.sidechain || !r.hasTS || len(r.blocks) == 0 {
		return false
	}
	for _, b := range r.blocks {
		if b.typ != "tool_result" {
			return false
		}
	}
	i, ok := index[r.uuid]
	pi, pok := index[r.parent]
	return ok && pok && c.recs[i] == r && len(c.children[i]) == 0 && len(c.children[pi]) > 1
}
