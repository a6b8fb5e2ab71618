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
	n := len(recs)
	index := make(map[string]int, n)
	dup := make([]bool, n)
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
	children := make([][]int, n)
	var roots []int
	hasMain := false
	for i, r := range recs {
		if dup[i] {
			continue
		}
		if !r.sidechain && (r.typ == "user" || r.typ == "assistant") {
			hasMain = true
		}
		p := r.parent
		if p == "" {
			p = r.logical
		}
		pi, ok := index[p]
		switch {
		case ok && pi != i && recs[pi].sidechain == r.sidechain:
			children[pi] = append(children[pi], i)
		default:
			if r.parent != "" && !ok {
				st.orphans++
			}
			roots = append(roots, i)
		}
	}

	visited := make([]bool, n)
	walk := func(root int) []*record {
		var out []*record
		stack := []int{root}
		for len(stack) > 0 {
			i := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if visited[i] {
				continue
			}
			visited[i] = true
			out = append(out, recs[i])
			for k := len(children[i]) - 1; k >= 0; k-- {
				stack = append(stack, children[i][k])
			}
		}
		return out
	}
	var main []*record
	var sides [][]*record
	add := func(root int) {
		seq := walk(root)
		if recs[root].sidechain && hasMain {
			sides = append(sides, seq)
		} else {
			main = append(main, seq...)
		}
	}
	for _, i := range roots {
		add(i)
	}
	// Records on a parentUuid cycle have no root: place each cycle where
	// its first record is, rather than lose it.
	for i := range recs {
		if !dup[i] && !visited[i] {
			if err := problem(recs[i].line, "parentUuid chain loops back on itself: followed from this line"); err != nil {
				return nil, st, err
			}
			add(i)
		}
	}

	parents, err := sideParents(recs, sides, problem)
	if err != nil {
		return nil, st, err
	}
	st.sidechains = len(sides)
	return merge(main, sides, parents), st, nil
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
	byAgent := map[string]string{}
	byPrompt := map[string][]string{}
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
				var prompt string
				members(b.input, func(k, v []byte) {
					if string(k) == "prompt" {
						prompt = str(v)
					}
				})
				if prompt != "" {
					byPrompt[prompt] = append(byPrompt[prompt], b.id)
				}
			}
		}
	}
	parents := make([]string, len(sides))
	for k, seq := range sides {
		agent := ""
		for _, r := range seq {
			if r.agentID != "" {
				agent = r.agentID
				break
			}
		}
		if id, ok := byAgent[agent]; ok && agent != "" {
			parents[k] = id
			continue
		}
		root := seq[0]
		if root.typ == "user" {
			if ids := byPrompt[userText(root)]; len(ids) == 1 {
				parents[k] = ids[0]
				continue
			} else if len(ids) > 1 {
				if err := problem(root.line, fmt.Sprintf("sub-agent chain: its prompt matches %d Task calls (%s); its tools are shown at top level", len(ids), strings.Join(ids, ", "))); err != nil {
					return nil, err
				}
				continue
			}
		}
		if err := problem(root.line, "sub-agent chain: cannot tell which Task call it runs under (no Task result names its agentId, no Task prompt equals its first message); its tools are shown at top level"); err != nil {
			return nil, err
		}
	}
	return parents, nil
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

func (c *cursor) settle() {
	if c.pos < len(c.recs) && c.recs[c.pos].hasTS {
		c.t = c.recs[c.pos].ts
	}
}

type cursors []*cursor

func (h cursors) Len() int { return len(h) }
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
func (h cursors) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *cursors) Push(x any)   { *h = append(*h, x.(*cursor)) }
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
