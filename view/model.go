package view

import (
	"bytes"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// model is the page's data, encoded as JSON into the page. Event indexes
// are 0-based positions in the trace; step i is the state after event i,
// and step len(events) the state after the end-of-stream rule.
type model struct {
	Title  string   `json:"title"`
	Source string   `json:"source,omitempty"`
	Kinds  []string `json:"kinds"` // event kind names; EvKind holds indexes into it
	EvKind []int    `json:"ek"`
	EvSeq  []int64  `json:"es"`
	EvT    []int64  `json:"et"`
	EvTool []int    `json:"etool"` // the tool (index into Tools) an event names, or -1
	Raw    []string `json:"raw"`   // each event's JSON line after its kind member, cut to RawCut bytes
	RawCut int      `json:"rawcut"`
	Tools  []*lane  `json:"tools"` // in display order (the final timeline's), children after their parent
	Groups []group  `json:"groups"`
	Diags  []diag   `json:"diags"`
	Lines  []any    `json:"lines"` // distinct render lines: a string, or [base, prefix, suffix, middle]
	Items  [][]int  `json:"items"` // distinct item texts as line ids
	Steps  [][]int  `json:"steps"` // per step: [items, index, item id, index, item id, ...]
	Width  int      `json:"width"`
	// Legend is the render's closing legend after the end-of-stream rule
	// (the unfinished mark), shown after the last step's items.
	Legend string `json:"legend,omitempty"`

	Failure *failure `json:"failure,omitempty"`
}

// lane is one tool call.
type lane struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Parent  int    `json:"parent"` // index of the parent tool's lane, or -1
	Depth   int    `json:"depth"`
	Batch   string `json:"batch,omitempty"`
	Meta    bool   `json:"meta,omitempty"`
	Start   int    `json:"start"` // event index of its tool_start
	End     int    `json:"end"`   // step at which it became terminal, or -1
	Status  string `json:"status"`
	Changes []any  `json:"changes"` // [step, status, step, status, ...] every status it had
	Ticks   []int  `json:"ticks,omitempty"`
	Done    int    `json:"done"` // event index of its first tool_done, or -1
	Args    string `json:"args,omitempty"`
	Output  string `json:"output,omitempty"`
	Error   string `json:"error,omitempty"`
	Summary string `json:"summary,omitempty"`

	ptr     *timeline.Tool
	top     int // top-level item index holding it
	disc    int // discovery index
	changes []change
}

type change struct {
	step   int
	status timeline.Status
}

// group is a tool_group item: its lanes are From..To (descendants
// included).
type group struct {
	Batch string `json:"batch"`
	From  int    `json:"from"`
	To    int    `json:"to"`
}

// diag is a diagnostic at the event that caused it.
type diag struct {
	Code string `json:"code"`
	ID   string `json:"id"`
	Seq  int64  `json:"seq"`
	Ev   int    `json:"ev"`   // event index of Seq, or the step it appeared at
	Tool int    `json:"tool"` // lane, or -1
}

// failure is a failed oracle, for check --html.
type failure struct {
	Ev        int    `json:"ev"` // event index of Seq, -1 when none
	Seq       int64  `json:"seq"`
	Oracle    string `json:"oracle"`
	Detail    string `json:"detail"`
	Diff      string `json:"diff,omitempty"`
	Reproduce string `json:"reproduce,omitempty"`
	Engine    string `json:"engine,omitempty"`    // the engine's render at the failing event
	Reference string `json:"reference,omitempty"` // the reference render there
}

// Budgets keep the page small on long traces: raw events and tool texts
// are cut so that their sum stays near these sizes.
const (
	rawBudget  = 4 << 20
	toolBudget = 2 << 20
	minCut     = 48
	maxCut     = 4096
)

// builder replays a trace through the reference engine and records the
// model as it goes.
type builder struct {
	m         *model
	evs       []event.Event
	eng       *engine.Engine
	kinds     map[event.Kind]int
	lines     lineTable
	items     map[string]int
	cache     []cachedItem // per top-level item: what step it was last rendered at
	live      map[int]bool // top-level items holding a live tool
	byPtr     map[*timeline.Tool]*lane
	byID      map[string]*lane // latest lane for an id
	batch     map[string]*lane // latest lane of a batch
	lastStart *lane            // the lane of the latest tool_start
	tools     []*lane          // in discovery order
	seqIdx    map[int64]int    // event index of a seq
	opts      render.Options
	ndiag     int
}

type cachedItem struct {
	item    *timeline.Item
	version uint64
	now     int64
	id      int // item text id
	lines   []int
}

// newBuilder starts a page's model; synthetic says the trace's clock
// counts events, so no duration is shown (as replay does).
func newBuilder(title string, evs []event.Event, width int, synthetic bool) *builder {
	b := &builder{
		m:      &model{Title: Clean(title), Width: width},
		evs:    evs,
		eng:    engine.New(engine.Options{}),
		kinds:  map[event.Kind]int{},
		lines:  newLineTable(),
		items:  map[string]int{},
		live:   map[int]bool{},
		byPtr:  map[*timeline.Tool]*lane{},
		byID:   map[string]*lane{},
		batch:  map[string]*lane{},
		seqIdx: make(map[int64]int, len(evs)),
		opts:   render.Options{Width: width, SyntheticClock: synthetic},
	}
	return b
}

// build replays every event and the end-of-stream rule.
func (b *builder) build() *model {
	n := len(b.evs)
	cut := clamp(rawBudget/max(n, 1), minCut, maxCut)
	b.m.RawCut = cut
	b.m.EvKind = make([]int, n)
	b.m.EvSeq = make([]int64, n)
	b.m.EvT = make([]int64, n)
	b.m.EvTool = make([]int, n)
	b.m.Raw = make([]string, n)
	b.m.Steps = make([][]int, 0, n+1)
	var raw []byte
	for i := range b.evs {
		ev := &b.evs[i]
		b.seqIdx[ev.Seq] = i
		raw = event.AppendEvent(raw[:0], ev)
		b.m.Raw[i] = Clean(cutString(string(raw[afterKind(raw):]), cut))
		b.m.EvKind[i] = b.kind(ev.Kind)
		b.m.EvSeq[i], b.m.EvT[i] = ev.Seq, ev.T
		b.eng.Apply(ev)
		b.step(i, ev)
		b.m.EvTool[i] = -1
		if l := b.byID[ev.ID]; ev.ID != "" && l != nil {
			b.m.EvTool[i] = l.disc // a discovery index until finish
			if ev.Kind == event.KindToolStart && !l.ptr.Meta {
				b.lastStart = l // the engine's open run: meta tools do not end it
			}
			switch {
			case ev.Kind == event.KindToolProgress:
				l.Ticks = append(l.Ticks, i)
			case ev.Kind == event.KindToolDone && l.Done < 0:
				l.Done = i
			}
		}
	}
	b.eng.Finish()
	b.step(n, nil)
	b.m.Legend = Clean(render.Legend(b.eng.Timeline(), b.opts))
	b.finish()
	return b.m
}

func (b *builder) kind(k event.Kind) int {
	if i, ok := b.kinds[k]; ok {
		return i
	}
	b.kinds[k] = len(b.m.Kinds)
	b.m.Kinds = append(b.m.Kinds, Clean(string(k)))
	return len(b.m.Kinds) - 1
}

// step records the render and the tool states after event i (ev nil: after
// Finish).
func (b *builder) step(i int, ev *event.Event) {
	tl := b.eng.Timeline()
	delta := []int{len(tl.Items)}
	for _, at := range b.candidates(tl, ev) {
		it := tl.Items[at]
		if at < len(b.cache) && b.cache[at].fresh(it, tl.Now) {
			continue
		}
		delta = b.rerender(delta, at, it, tl.Now)
		b.observe(i, at, it)
		if it.Live() {
			b.live[at] = true
		} else {
			delete(b.live, at)
		}
	}
	if len(b.cache) > len(tl.Items) {
		b.cache = b.cache[:len(tl.Items)]
	}
	b.m.Steps = append(b.m.Steps, delta)
	for _, d := range tl.Diagnostics[b.ndiag:] {
		b.addDiag(i, d)
	}
	b.ndiag = len(tl.Diagnostics)
}

// candidates are the top-level items that may have changed: the last one
// before the event, any new ones, every item holding a live tool, and the
// items holding the tools the event names.
func (b *builder) candidates(tl *timeline.Timeline, ev *event.Event) []int {
	seen := map[int]bool{}
	var out []int
	add := func(at int) {
		if at >= 0 && at < len(tl.Items) && !seen[at] {
			seen[at] = true
			out = append(out, at)
		}
	}
	for at := max(len(b.cache)-1, 0); at < len(tl.Items); at++ {
		add(at)
	}
	for at := range b.live {
		add(at)
	}
	if ev != nil {
		for _, id := range []string{ev.ID, ev.Parent} {
			if l := b.byID[id]; id != "" && l != nil {
				add(l.top)
			}
		}
		if l := b.batch[ev.Batch]; ev.Batch != "" && l != nil {
			add(l.top) // a late member joins its batch's group
		}
		if l := b.lastStart; ev.Kind == event.KindToolStart && l != nil {
			add(l.top) // a run of starts groups, across meta tools
		}
	}
	return out
}

func (c *cachedItem) fresh(it *timeline.Item, now int64) bool {
	return c.item == it && it.Version != 0 && c.version == it.Version && (c.now == now || !it.Live())
}

// rerender renders item at and appends its id to delta when its text
// changed.
func (b *builder) rerender(delta []int, at int, it *timeline.Item, now int64) []int {
	for len(b.cache) <= at {
		b.cache = append(b.cache, cachedItem{id: -1})
	}
	c := &b.cache[at]
	text := render.Item(it, now, b.opts)
	id, ok := b.items[text]
	if !ok {
		id = len(b.m.Items)
		b.items[text] = id
		b.m.Items = append(b.m.Items, b.lines.item(text, c.lines))
	}
	if id != c.id {
		delta = append(delta, at, id)
	}
	*c = cachedItem{item: it, version: it.Version, now: now, id: id, lines: b.m.Items[id]}
	return delta
}

// observe records new tools and status changes inside a changed item.
func (b *builder) observe(i, at int, it *timeline.Item) {
	it.EachTool(func(t *timeline.Tool) bool {
		l := b.byPtr[t]
		if l == nil {
			l = &lane{ID: t.ID, Name: t.Name, Start: i, End: -1, Done: -1, ptr: t, disc: len(b.tools)}
			if s, ok := b.seqStart(t.ID, i); ok {
				l.Start = s
			}
			b.byPtr[t] = l
			b.byID[t.ID] = l
			b.tools = append(b.tools, l)
		}
		l.top = at
		if t.Batch != "" {
			b.batch[t.Batch] = l
		}
		if n := len(l.changes); n == 0 || l.changes[n-1].status != t.Status {
			l.changes = append(l.changes, change{step: i, status: t.Status})
			if t.Status.Terminal() && l.End < 0 {
				l.End = i
			}
		}
		return true
	})
}

// seqStart is the index of the tool_start of id at or before event i (a
// tool placed after an early result starts at its tool_start).
func (b *builder) seqStart(id string, i int) (int, bool) {
	for j := min(i, len(b.evs)-1); j >= 0 && j > i-64; j-- {
		if ev := &b.evs[j]; ev.Kind == event.KindToolStart && ev.ID == id {
			return j, true
		}
	}
	return 0, false
}

func (b *builder) addDiag(step int, d timeline.Diagnostic) {
	at, ok := b.seqIdx[d.Seq]
	if !ok {
		at = min(step, len(b.evs)-1)
	}
	tool := -1
	if l := b.byID[d.ID]; d.ID != "" && l != nil {
		tool = l.disc
	}
	b.m.Diags = append(b.m.Diags, diag{Code: Clean(d.Code), ID: Clean(d.ID), Seq: d.Seq, Ev: max(at, 0), Tool: tool})
}

func clamp(v, lo, hi int) int { return max(lo, min(v, hi)) }

// cutString cuts s to at most n bytes (at a rune boundary), saying how much
// was cut.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xc0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}

// afterKind is the offset in an event's canonical JSON just past its kind
// member (seq, t and kind come first; the page has them already).
func afterKind(raw []byte) int {
	const key = `,"kind":"`
	i := bytes.Index(raw, []byte(key))
	if i < 0 {
		return 0
	}
	for j := i + len(key); j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return 0
}
