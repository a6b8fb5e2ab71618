package tui

import (
	"slices"
	"sort"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// DefaultDepth is how many lines of the render's tail a frame keeps.
const DefaultDepth = 200

// Frame is what the player shows after the first N events of a trace.
type Frame struct {
	N          int                   // events applied
	Event      *event.Event          // the last event applied; nil when N is 0
	Now        int64                 // the trace clock
	Lines      []Line                // the last lines of the render at the store's width
	More       bool                  // lines above Lines were left out
	Diags      []timeline.Diagnostic // the diagnostics this event added
	Violations []Violation           // the step-local oracles this event failed
	TotalDiags int                   // diagnostics so far
	Live       int                   // tools still live
}

// StoreOptions configure a [Store]. Zero fields take the defaults.
type StoreOptions struct {
	Every  int  // checkpoint spacing unit in events; DefaultCheckpointEvery
	Budget int  // checkpoint budget in events; DefaultCheckpointBudget
	Width  int  // render width; render.DefaultWidth
	Depth  int  // lines of the render's tail kept per frame; DefaultDepth
	Output bool // show output snippets under tools

	// SyntheticClock: the trace's clock counts events (header meta
	// "clock":"synthetic"); durations measured on it are not shown.
	SyntheticClock bool
}

// Store computes the frames of a trace on demand. It keeps the events, a
// working engine, checkpoints every few thousand events (see
// [DefaultCheckpointEvery]) and the frames computed last, never every
// frame: frame N is computed by taking the nearest engine at or before
// event N — the working engine, a checkpoint, or a fresh one — and applying
// the events up to N. Walking forward reuses the working engine.
//
// A Store is not safe for concurrent use; its checkpoint builder runs on a
// goroutine of its own and only reads the events.
type Store struct {
	evs  []event.Event
	opts StoreOptions
	cps  *checkpoints // nil for a live store

	cur     *engine.Engine // the working engine, after curN events
	curN    int
	oracles oracles // the oracles' view of cur, when seenN == curN
	seenN   int
	items   itemCache
	ring    map[int]*Frame // frames computed lately, by N
	ended   bool           // no event will follow the last: its live tools show as unfinished
}

// NewStore returns a store over a whole trace. Call [Store.Start] to build
// its checkpoints in the background, and [Store.Close] when done.
func NewStore(evs []event.Event, opts StoreOptions) *Store {
	s := newStore(opts)
	s.evs = evs
	s.cps = newCheckpoints(evs, s.opts.Every, s.opts.Budget)
	s.ended = true
	return s
}

// NewLiveStore returns a store whose trace grows ([Store.Append]) and may
// be rewritten from some event on ([Store.Truncate]). It keeps no
// checkpoints: a live view stays at the end, where the working engine is.
func NewLiveStore(opts StoreOptions) *Store {
	return newStore(opts)
}

func newStore(opts StoreOptions) *Store {
	if opts.Every <= 0 {
		opts.Every = DefaultCheckpointEvery
	}
	if opts.Budget <= 0 {
		opts.Budget = DefaultCheckpointBudget
	}
	if opts.Width <= 0 {
		opts.Width = render.DefaultWidth
	}
	if opts.Depth <= 0 {
		opts.Depth = DefaultDepth
	}
	return &Store{opts: opts, seenN: -1, items: itemCache{m: map[*timeline.Item]cachedLines{}}, ring: map[int]*Frame{}}
}

// Start builds the checkpoints on a goroutine. It does nothing for a live
// store.
func (s *Store) Start() {
	if s.cps != nil {
		s.cps.start()
	}
}

// WaitCheckpoints blocks until every checkpoint is in place. Without
// Start it builds them on the calling goroutine.
func (s *Store) WaitCheckpoints() {
	if s.cps == nil {
		return
	}
	if !s.cps.run {
		s.cps.build(s.cps.missing())
		return
	}
	s.cps.wait()
}

// Close stops the checkpoint builder.
func (s *Store) Close() {
	if s.cps != nil {
		s.cps.close()
	}
}

// Len returns the number of events.
func (s *Store) Len() int { return len(s.evs) }

// Event returns event i (0-based).
func (s *Store) Event(i int) *event.Event { return &s.evs[i] }

// Width returns the render width.
func (s *Store) Width() int { return s.opts.Width }

// SetLayout sets the render width and the number of tail lines kept per
// frame. Frames computed before a change are dropped.
func (s *Store) SetLayout(width, depth int) {
	if width == s.opts.Width && depth <= s.opts.Depth {
		return
	}
	s.opts.Width = width
	s.opts.Depth = max(depth, DefaultDepth)
	clear(s.ring)
	s.items.clear()
}

// SetEnded tells a live store that its input ended: the last frame shows
// the tools still live as unfinished.
func (s *Store) SetEnded() {
	if !s.ended {
		s.ended = true
		delete(s.ring, len(s.evs))
	}
}

// Append adds events to a live store's trace.
func (s *Store) Append(evs ...event.Event) {
	s.evs = append(s.evs, evs...)
}

// Truncate drops the events from n on (a live source rewrote them) and
// every frame that depended on them.
func (s *Store) Truncate(n int) {
	if n >= len(s.evs) {
		return
	}
	s.evs = s.evs[:max(n, 0)]
	for k := range s.ring {
		if k > n {
			delete(s.ring, k)
		}
	}
	if s.curN > n {
		s.cur, s.seenN = nil, -1
	}
}

// SeqIndex returns the frame of the last event whose seq is at most seq
// (the first event's when seq is smaller), or 0 for an empty trace.
func (s *Store) SeqIndex(seq int64) int {
	if len(s.evs) == 0 {
		return 0
	}
	i := sort.Search(len(s.evs), func(i int) bool { return s.evs[i].Seq > seq })
	return max(i, 1)
}

// Frame returns frame n: the state after the first n events, n clamped to
// [0, Len].
func (s *Store) Frame(n int) *Frame {
	n = max(0, min(n, len(s.evs)))
	if f := s.ring[n]; f != nil {
		return f
	}
	if n == 0 {
		f := &Frame{}
		s.ring[0] = f
		return f
	}
	s.seek(n)
	s.trimRing(n)
	return s.ring[n]
}

// seek applies events to the working engine up to n, keeping the last
// frames on the way: as many as the oracles' walks can afford.
func (s *Store) seek(n int) {
	s.base(n - 1)
	for s.curN < n-maxKeep {
		s.advance(false)
	}
	first := max(s.curN+1, n-keepWindow(n, s.width())+1)
	for s.curN < n {
		s.advance(s.curN+1 >= first)
	}
}

// width is how many tools the working engine's last top-level item holds:
// what a kept frame renders whole when the next events change that item.
func (s *Store) width() int {
	items := s.cur.Timeline().Items
	if len(items) == 0 {
		return 0
	}
	n := 0
	items[len(items)-1].EachTool(func(*timeline.Tool) bool { n++; return true })
	return n
}

// base positions the working engine at or before event target on the
// cheapest start: itself, a checkpoint further on, or a fresh engine.
func (s *Store) base(target int) {
	after := -1
	if s.cur != nil && s.curN <= target {
		after = s.curN
	}
	if s.cps != nil {
		if p, e := s.cps.take(after, target); e != nil {
			s.cur, s.curN, s.seenN = e, p, -1
			return
		}
	}
	if after < 0 {
		s.cur, s.curN, s.seenN = engine.New(engine.Options{}), 0, -1
	}
}

// maxKeep is the most frames a seek keeps on its way.
const maxKeep = 256

// keepWindow is how many frames up to n a seek keeps: a kept frame costs a
// glance at every item, and the timeline after n events holds at most n
// items, so long traces keep fewer. A kept frame also renders the items
// its event changed, whole: when the last item holds width tools (one
// wide group), fewer still, down to the frame sought alone.
func keepWindow(n, width int) int {
	k := max(16, min(maxKeep, (1<<24)/max(n, 1)))
	return max(1, min(k, maxKeptRows/max(width, 1)))
}

// maxKeptRows bounds the tool rows a seek renders for the frames it keeps
// when the last item is wide.
const maxKeptRows = 1 << 18

// advance applies the next event; with keep it also records its frame.
func (s *Store) advance(keep bool) {
	ev := &s.evs[s.curN]
	tl := s.cur.Timeline()
	if !keep {
		s.cur.Apply(ev)
		s.curN++
		return
	}
	if s.seenN != s.curN {
		s.oracles.sync(tl)
	}
	ndiag := len(tl.Diagnostics)
	s.cur.Apply(ev)
	s.curN++
	f := &Frame{N: s.curN, Event: ev, Now: tl.Now, TotalDiags: len(tl.Diagnostics), Live: len(s.cur.Live())}
	f.Diags = slices.Clone(tl.Diagnostics[ndiag:])
	f.Violations = s.oracles.step(ev, tl)
	f.Lines, f.More = s.tail(tl, s.renderOpts(s.curN))
	s.seenN = s.curN
	s.ring[s.curN] = f
}

// trimRing forgets frames far from n.
func (s *Store) trimRing(n int) {
	if len(s.ring) <= 4*maxKeep {
		return
	}
	for k := range s.ring {
		if k < n-2*maxKeep || k > n+2*maxKeep {
			delete(s.ring, k)
		}
	}
}

// renderOpts are the render options of frame n: the last frame of an
// ended input shows unfinished tools.
func (s *Store) renderOpts(n int) render.Options {
	return render.Options{Width: s.opts.Width, Output: s.opts.Output, SyntheticClock: s.opts.SyntheticClock,
		Ended: s.ended && n == len(s.evs)}
}

// tail renders the last items of tl, up to the depth in lines, then the
// unfinished legend when there is one.
func (s *Store) tail(tl *timeline.Timeline, opts render.Options) ([]Line, bool) {
	depth, n := s.opts.Depth, 0
	var chunks [][]Line
	if legend := render.Legend(tl, opts); legend != "" {
		chunks = append(chunks, []Line{{Text: render.Fit(legend, opts.Width), Role: RoleNotice, Status: timeline.StatusInterrupted}})
		n += 2
	}
	i := len(tl.Items) - 1
	for ; i >= 0 && n < depth; i-- {
		lines := s.items.lines(tl.Items[i], tl.Now, opts)
		if len(lines) == 0 {
			continue // a hidden item: no lines, no blank line
		}
		chunks = append(chunks, lines)
		n += len(lines) + 1
	}
	return tailLines(chunks, i >= 0, depth, n)
}

// tailLines joins the last depth lines of chunks (newest first) in display
// order, one blank line before each chunk but the topmost when nothing is
// above it (above); n is how many lines they hold. Only the lines kept are
// copied, and the text of a line of a chunk longer than depth too (it is
// cut from the whole chunk's text): an item of a million rows costs a
// frame no more than one of ten.
func tailLines(chunks [][]Line, above bool, depth, n int) ([]Line, bool) {
	rev := make([]Line, 0, min(n, depth)) // the kept lines, newest first
	for j, chunk := range chunks {
		for k := len(chunk) - 1; k >= 0; k-- {
			if len(rev) == depth {
				return reversed(rev), true
			}
			l := chunk[k]
			if len(chunk) > depth {
				l.Text = strings.Clone(l.Text)
			}
			rev = append(rev, l)
		}
		if j != len(chunks)-1 || above {
			if len(rev) == depth {
				return reversed(rev), true
			}
			rev = append(rev, Line{Role: RoleBlank})
		}
	}
	return reversed(rev), above
}

func reversed(lines []Line) []Line {
	slices.Reverse(lines)
	return lines
}

// itemCache keeps the lines of items by identity, valid while the item's
// version (and, for an item with a live tool, the clock) has not moved.
// It forgets everything when it holds too many items or lines: entries of
// items no engine shows any more (an engine copies an item it changes
// after a clone) are only dropped that way.
type itemCache struct {
	m    map[*timeline.Item]cachedLines
	held int // lines held in m
}

// Bounds of an itemCache.
const (
	maxCachedItems = 1 << 14
	maxCachedLines = 1 << 20
)

type cachedLines struct {
	version uint64
	now     int64
	live    bool
	ended   bool
	lines   []Line
}

func (c *itemCache) lines(it *timeline.Item, now int64, opts render.Options) []Line {
	if e, ok := c.m[it]; ok && it.Version != 0 && e.version == it.Version && (!e.live || e.now == now && e.ended == opts.Ended) {
		return e.lines
	}
	lines := ItemLines(it, now, opts)
	if len(c.m) >= maxCachedItems || c.held+len(lines) > maxCachedLines {
		c.clear()
	}
	c.held += len(lines) - len(c.m[it].lines)
	c.m[it] = cachedLines{version: it.Version, now: now, live: it.Live(), ended: opts.Ended, lines: lines}
	return lines
}

func (c *itemCache) clear() {
	clear(c.m)
	c.held = 0
}
