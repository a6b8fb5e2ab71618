package rebuild

import (
	"container/heap"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/store"
)

// node is a unit of ordering: a record, or the result half of a lifecycle.
type node struct {
	rec    *store.Record
	end    bool // the result half of a tool_lifecycle
	line   int
	file   int // position in the file
	id     string
	seq    *int64
	parent string
	ts     string

	// Borrowed from the line being read (see decoder.borrow); own turns
	// them into the strings above before the line buffer moves on.
	idRaw, parentRaw, tsRaw []byte
}

// own copies the borrowed members into the node's strings.
func (n *node) own() {
	if n.idRaw != nil {
		n.id = string(n.idRaw) + n.id
	}
	if n.parentRaw != nil {
		n.parent = string(n.parentRaw)
	}
	if n.tsRaw != nil {
		n.ts = string(n.tsRaw)
	}
	n.idRaw, n.parentRaw, n.tsRaw = nil, nil, nil
}

// stamp returns the node's timestamp, borrowed or owned.
func (n *node) stamp() []byte {
	if n.tsRaw != nil {
		return n.tsRaw
	}
	return []byte(n.ts)
}

// key returns the node's id, borrowed or owned.
func (n *node) key() string {
	if n.idRaw != nil {
		return string(n.idRaw) + n.id
	}
	return n.id
}

// orderer puts nodes back in event order. The first node decides the
// mode: with a seq number, nodes stream through a reorder heap; without,
// they are held and sorted at the end by parent links or by time.
type orderer struct {
	b       *builder
	decided bool
	bySeq   bool

	next    int64           // the seq expected next
	heap    seqHeap         // nodes waiting for their turn
	waiting map[int64]*node // seq → waiting node, to spot duplicates

	held []*node // without seq numbers: everything, in file order
}

func (o *orderer) add(nodes []*node) {
	for _, n := range nodes {
		if !o.decided {
			o.decided, o.bySeq = true, n.seq != nil
		}
		if !o.bySeq {
			o.held = append(o.held, o.b.retain(n))
			continue
		}
		o.addSeq(n)
	}
}

// addSeq places a numbered node and emits every node now in order.
func (o *orderer) addSeq(n *node) {
	switch {
	case n.seq == nil:
		o.b.problem(n.line, CodeMissingSeq, "record %s has no seq in a numbered log: placed where it was read", n.key())
		o.b.emit(n)
		return
	case *n.seq <= 0:
		o.b.problem(n.line, CodeBadRecord, "record %s has seq %d: seq numbers start at 1: dropped", n.key(), *n.seq)
		return
	case *n.seq < o.next:
		o.b.problem(n.line, CodeDuplicate, "record %s (seq %d) repeats one already used: dropped", n.key(), *n.seq)
		return
	}
	if w, ok := o.waiting[*n.seq]; ok {
		code := CodeDuplicate
		if w.id != n.key() {
			code = CodeConflict
		}
		o.b.problem(n.line, code, "record %s claims seq %d, already held by %s (line %d): dropped", n.key(), *n.seq, w.id, w.line)
		return
	}
	if *n.seq == o.next && o.heap.Len() == 0 {
		// In order, nothing waiting: the usual case needs no heap.
		o.next++
		o.b.emit(n)
		return
	}
	n = o.b.retain(n)
	o.waiting[*n.seq] = n
	heap.Push(&o.heap, n)
	for o.heap.Len() > 0 && *o.heap[0].seq == o.next {
		m := heap.Pop(&o.heap).(*node)
		delete(o.waiting, *m.seq)
		o.next++
		o.b.emit(m)
	}
}

// flush emits whatever is still held at the end of the log.
func (b *builder) flush() {
	o := &b.order
	if o.bySeq {
		o.flushSeq()
	} else {
		o.flushHeld()
	}
}

// flushSeq reports missing numbers and emits the rest in seq order.
func (o *orderer) flushSeq() {
	for o.heap.Len() > 0 {
		m := heap.Pop(&o.heap).(*node)
		if *m.seq != o.next {
			o.b.problem(m.line, CodeSeqGap, "records with seq %d to %d are missing (lost or never written)", o.next, *m.seq-1)
		}
		o.next = *m.seq + 1
		o.b.emit(m)
	}
	o.b.res.Order = "seq"
}

// flushHeld drops retried records and orders the rest by parent links
// when every link resolves, else by time with file order breaking ties.
func (o *orderer) flushHeld() {
	nodes := o.dedupe()
	if ordered, ok := o.byParent(nodes); ok {
		o.b.res.Order = "parent"
		nodes = ordered
	} else {
		o.b.res.Order = "time"
		slices.SortStableFunc(nodes, func(x, y *node) int { return strings.Compare(x.ts, y.ts) })
		o.reportTies(nodes)
	}
	for _, n := range nodes {
		o.b.emit(n)
	}
}

func (o *orderer) dedupe() []*node {
	seen := map[string]*node{}
	var out []*node
	for _, n := range o.held {
		if first, ok := seen[n.id]; ok {
			o.b.problem(n.line, CodeDuplicate, "record %s repeats line %d: dropped", n.id, first.line)
			continue
		}
		seen[n.id] = n
		out = append(out, n)
	}
	return out
}

// byParent orders nodes by walking the parent links from the root. A node
// whose parent is not in the log (lost to a crash) starts an orphan chain,
// reported and spliced back after the last earlier-or-equal timestamp.
func (o *orderer) byParent(nodes []*node) ([]*node, bool) {
	ids := map[string]bool{}
	linked := false
	for _, n := range nodes {
		ids[n.id] = true
		linked = linked || n.parent != ""
	}
	if !linked {
		return nil, false // a log without parent links: order by time
	}
	children := map[string][]*node{}
	var root *node
	var orphans []*node
	for _, n := range nodes {
		switch {
		case n.parent == "" && root == nil:
			root = n
		case n.parent == "" || !ids[n.parent]:
			o.b.problem(n.line, CodeBrokenChain, "record %s links to %q, which is not in the log: placed by time", n.id, n.parent)
			orphans = append(orphans, n)
		default:
			children[n.parent] = append(children[n.parent], n)
		}
	}
	if root == nil || len(children) == 0 {
		return nil, false
	}
	out := walk(root, children)
	for _, head := range orphans {
		chain := walk(head, children)
		at := len(out)
		for at > 0 && out[at-1].ts > head.ts {
			at--
		}
		out = slices.Insert(out, at, chain...)
	}
	return out, len(out) == len(nodes)
}

// walk lists a node and its descendants, children in file order.
func walk(root *node, children map[string][]*node) []*node {
	var out []*node
	stack := []*node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		out = append(out, n)
		kids := children[n.id]
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, kids[i])
		}
	}
	return out
}

// reportTies says once when records tie on time and only file order
// orders them, which a late write can get wrong.
func (o *orderer) reportTies(nodes []*node) {
	groups, first := 0, 0
	for i := 1; i < len(nodes); i++ {
		if nodes[i].ts == nodes[i-1].ts && (i == 1 || nodes[i-1].ts != nodes[i-2].ts) {
			if groups == 0 {
				first = nodes[i-1].line
			}
			groups++
		}
	}
	if groups > 0 {
		o.b.problem(first, CodeAmbiguous, "%d groups of records share a timestamp and have no seq or parent link: ordered by file position", groups)
	}
}

// seqHeap is a min-heap of nodes by seq.
type seqHeap []*node

func (h seqHeap) Len() int           { return len(h) }
func (h seqHeap) Less(i, j int) bool { return *h[i].seq < *h[j].seq }
func (h seqHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *seqHeap) Push(x any)        { *h = append(*h, x.(*node)) }
func (h *seqHeap) Pop() any {
	old := *h
	n := old[len(old)-1]
	*h = old[:len(old)-1]
	return n
}
