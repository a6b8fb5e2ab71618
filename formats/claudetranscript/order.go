package claudetranscript

import (
	"container/heap"
	"fmt"
	"strings"
	"time"
)

// item is one record in mapping order.
type item struct {
	rec    *record
	side   bool   // a sub-agent (sidechain) record
	parent string // for side records: the Task call they run under, "" if unknown
}

// orderStats are what ordering tells the header meta.
type orderStats struct {
	duplicates int // records whose uuid was already seen (skipped)
	orphans    int // records whose parentUuid is not in the file (treated as roots)
	sidechains int // sub-agent chains
}

// plan puts the records in the order of their uuid/parentUuid tree: the
// main conversation is followed from its roots (in file order), depth
// first, siblings in file order. Each sub-agent (sidechain) chain is
// followed the same way on its own, and the chains are interleaved with
// the main conversation by timestamp (each chain keeping its own order,
// file order breaking ties), because a sub-agent runs while its Task call
// is live. problem reports a line it could not place; it returns the
// error that stops a strict import.
func plan(recs []*record, problem func(line int, reason string) error) ([]item, orderStats, error) {
	var st orderStats
	index, dup := indexUUIDs(recs, &st)
	c := newChains(recs, index, dup, &st)
	for _, i := range c.roots {
		c.add(i)
	}
	// Records on a parentUuid cycle have no root: place each cycle where
	// its first record is, rather than lose it.
	for i := range recs {
		if !dup[i] && !c.visited[i] {
			if err := problem(recs[i].line, "parentUuid chain loops back on itself: followed from this line"); err != nil {
				return nil, st, err
			}
			c.add(i)
		}
	}

	c.placeResults(index)
	parents, err := sideParents(recs, c.sides, problem)
	if err != nil {
		return nil, st, err
	}
	st.sidechains = len(c.sides)
	return merge(c.main, c.sides, parents), st, nil
}

// indexUUIDs maps each uuid to the index of its first record, and marks
// the records whose uuid was already seen (counted as duplicates).
func indexUUIDs(recs []*record, st *orderStats) (map[string]int, []bool) {
	index := make(map[string]int, len(recs))
	dup := make([]bool, len(recs))
	for i, r := range recs {
		if r.uuid == "" {
			continue
		}
		if _, ok := index[r.uuid]; ok {
			dup[i] = true
			st.duplicates++
			continue
		}
		index[r.uuid] = i
	}
	return index, dup
}

// chains is the uuid/parentUuid tree of a file's records, and the
// sequences walked from it so far: the main conversation and the
// sidechains.
type chains struct {
	recs     []*record
	children [][]int // by record index, in file order
	roots    []int   // records without a parent in the file, in file order
	hasMain  bool    // the file has main-conversation messages
	visited  []bool
	main     []*record
	sides    [][]*record
}

// newChains builds the tree: a record hangs under its parentUuid (else its
// logicalParentUuid) when that record is in the file on the same side
// (main or sidechain); otherwise it is a root (counted as an orphan when
// its parent is missing).
func newChains(recs []*record, index map[string]int, dup []bool, st *orderStats) chains {
	n := len(recs)
	c := chains{recs: recs, children: make([][]int, n), visited: make([]bool, n)}
	for i, r := range recs {
		if dup[i] {
			continue
		}
		if !r.sidechain && (r.typ == "user" || r.typ == "assistant") {
			c.hasMain = true
		}
		p := r.parent
		if p == "" {
			p = r.logical
		}
		pi, ok := index[p]
		switch {
		case ok && pi != i && recs[pi].sidechain == r.sidechain:
			c.children[pi] = append(c.children[pi], i)
		default:
			if r.parent != "" && !ok {
				st.orphans++
			}
			c.roots = append(c.roots, i)
		}
	}
	return c
}

// walk follows the tree from root, depth first, children in file order,
// skipping records already visited.
func (c *chains) walk(root int) []*record {
	var out []*record
	stack := []int{root}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c.visited[i] {
			continue
		}
		c.visited[i] = true
		out = append(out, c.recs[i])
		for k := len(c.children[i]) - 1; k >= 0; k-- {
			stack = append(stack, c.children[i][k])
		}
	}
	return out
}

// add walks the tree from root: a sidechain root (in a file with a main
// conversation) starts a sidechain of its own, any other root continues
// the main sequence.
func (c *chains) add(root int) {
	seq := c.walk(root)
	if c.recs[root].sidechain && c.hasMain {
		c.sides = append(c.sides, seq)
	} else {
		c.main = append(c.main, seq...)
	}
}

// sideParents finds the Task call each sidechain runs under: the Task
// whose result names the chain's agentId (toolUseResult.agentId), else the
// one Task/Agent call whose input.prompt equals the chain's first user
// message. When neither settles it, the chain is reported and its tools
// are shown at top level.
func sideParents(recs []*record, sides [][]*record, problem func(int, string) error) ([]string, error) {
	if len(sides) == 0 {
		return nil, nil
	}
	byAgent, byPrompt := taskCalls(recs)
	parents := make([]string, len(sides))
	for k, seq := range sides {
		id, err := sideParent(seq, byAgent, byPrompt, problem)
		if err != nil {
			return nil, err
		}
		parents[k] = id
	}
	return parents, nil
}

// taskCalls indexes the Task calls of a file: by the agentId their
// result names, and by their input.prompt.
func taskCalls(recs []*record) (byAgent map[string]string, byPrompt map[string][]string) {
	byAgent = map[string]string{}
	byPrompt = map[string][]string{}
	for _, r := range recs {
		if r.resultAgent != "" {
			var ids []string
			for _, b := range r.blocks {
				if b.typ == "tool_result" {
					ids = append(ids, b.toolUseID)
				}
			}
			if len(ids) == 1 {
				byAgent[r.resultAgent] = ids[0]
			}
		}
		for _, b := range r.blocks {
			if b.typ == "tool_use" && (b.name == "Task" || b.name == "Agent") {
				if prompt := taskPrompt(b); prompt != "" {
					byPrompt[prompt] = append(byPrompt[prompt], b.id)
				}
			}
		}
	}
	return byAgent, byPrompt
}

// taskPrompt is a Task call's input.prompt.
func taskPrompt(b block) string {
	var prompt string
	members(b.input, func(k, v []byte) {
		if string(k) == "prompt" {
			prompt = str(v)
		}
	})
	return prompt
}

// sideParent finds the Task call one sidechain runs under (see
// sideParents), or "" after reporting the chain.
func sideParent(seq []*record, byAgent map[string]string, byPrompt map[string][]string, problem func(int, string) error) (string, error) {
	agent := ""
	for _, r := range seq {
		if r.agentID != "" {
			agent = r.agentID
			break
		}
	}
	if id, ok := byAgent[agent]; ok && agent != "" {
		return id, nil
	}
	root := seq[0]
	if root.typ == "user" {
		if ids := byPrompt[userText(root)]; len(ids) == 1 {
			return ids[0], nil
		} else if len(ids) > 1 {
			return "", problem(root.line, fmt.Sprintf("sub-agent chain: its prompt matches %d Task calls (%s); its tools are shown at top level", len(ids), strings.Join(ids, ", ")))
		}
	}
	return "", problem(root.line, "sub-agent chain: cannot tell which Task call it runs under (no Task result names its agentId, no Task prompt equals its first message); its tools are shown at top level")
}

// userText joins the text blocks of a user record.
func userText(r *record) string {
	var parts []string
	for _, b := range r.blocks {
		if b.typ == "text" {
			parts = append(parts, b.text)
		}
	}
	return strings.Join(parts, "\n")
}

// cursor walks one chain during the merge.
type cursor struct {
	recs   []*record
	pos    int
	t      time.Time // time of the head (carried forward over records without one)
	rank   int       // 0 main, then sidechains in order
	parent string
}

// settle carries the head record's time into the cursor, when it has
// one.
func (c *cursor) settle() {
	if c.pos < len(c.recs) && c.recs[c.pos].hasTS {
		c.t = c.recs[c.pos].ts
	}
}

// cursors is a heap of chain cursors, earliest head first.
type cursors []*cursor

// Len implements heap.Interface: the number of cursors.
func (h cursors) Len() int { return len(h) }

// Less implements heap.Interface: the earlier head first; at equal times
// the head from the earlier line, then main before sidechains.
func (h cursors) Less(i, j int) bool {
	a, b := h[i], h[j]
	if !a.t.Equal(b.t) {
		return a.t.Before(b.t)
	}
	if la, lb := a.recs[a.pos].line, b.recs[b.pos].line; la != lb {
		return la < lb
	}
	return a.rank < b.rank
}

// Swap implements heap.Interface.
func (h cursors) Swap(i, j int) { h[i], h[j] = h[j], h[i] }

// Push implements heap.Interface: x is a *cursor.
func (h *cursors) Push(x any) { *h = append(*h, x.(*cursor)) }

// Pop implements heap.Interface: it removes and returns the last cursor.
func (h *cursors) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// merge interleaves the sidechains with the main sequence by time.
func merge(main []*record, sides [][]*record, parents []string) []item {
	out := make([]item, 0, len(main))
	if len(sides) == 0 {
		for _, r := range main {
			out = append(out, item{rec: r})
		}
		return out
	}
	h := &cursors{}
	if len(main) > 0 {
		c := &cursor{recs: main}
		c.settle()
		*h = append(*h, c)
	}
	for k, seq := range sides {
		c := &cursor{recs: seq, rank: k + 1, parent: parents[k]}
		c.settle()
		*h = append(*h, c)
	}
	heap.Init(h)
	for h.Len() > 0 {
		c := (*h)[0]
		out = append(out, item{rec: c.recs[c.pos], side: c.rank > 0, parent: c.parent})
		c.pos++
		if c.pos == len(c.recs) {
			heap.Pop(h)
			continue
		}
		c.settle()
		heap.Fix(h, 0)
	}
	return out
}
