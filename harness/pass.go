package harness

import (
	"fmt"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/model"
	"github.com/toolsim/toolsim/timeline"
)

// checkpointEvery is how often (in events) a pass compares every item
// whose version moved, not only those the engine and the model say
// changed; the end of the trace compares everything. Once the timeline
// holds more items than that, a checkpoint comes every as many events as
// there are items, so that checkpoints cost O(1) per event in all.
const checkpointEvery = 1024

// roundRows bounds the rows one round of the oracles sees: a step that
// compares more (a checkpoint, the end) runs them in rounds, so that its
// outlines take bounded memory; chunkMembers bounds the tools of a group
// compared in one piece there.
const (
	roundRows    = 1 << 14
	chunkMembers = 4096
)

// partialMin is the group size from which a step outlines only the group's
// header and the tools the event changed, not the whole group: a group of
// a million tools would otherwise be outlined whole at every start.
// Checkpoints and the end compare such a group whole.
const partialMin = 64

// maxViolations ends a pass that keeps failing: a long trace that went
// wrong early would otherwise report the same difference at every event.
const maxViolations = 100

// pass is one check of one trace. A driver feeds each event to the engine
// and the model; the pass works out which top-level items changed, outlines
// those (model and engine), and hands the step to every oracle.
type pass struct {
	opts    Options
	fields  fields
	model   *model.Model
	d       *driver
	eng     Engine // the engine under test, asked which items changed
	ref     Engine
	oracles []stepOracle
	found   []Violation
	cache   []seen                 // what was last compared of each engine item
	index   map[*timeline.Item]int // engine item → its top-level index
	set     []int
	step    step
	n       int
	// checked is the event count at the last checkpoint.
	checked int
	places  []int // the group members a partial pair compares
	atEnd   bool  // Finish was applied: violations are at the end of the stream
	// staleSeen holds the items built from deltas that a snapshot showed
	// stale, each reported once; staleDiags is set once stale diagnostics
	// were (checkSnapshot).
	staleSeen  map[*timeline.Item]bool
	staleDiags bool
}

// seen is what a pass last compared of one engine item.
type seen struct {
	item    *timeline.Item
	version uint64
}

// step is what the oracles see after one event (or after Finish).
type step struct {
	ev   *event.Event
	tl   *timeline.Timeline
	end  bool // after Finish: every item is compared
	full bool // at a checkpoint or the end
	// first and last say whether this round of the oracles is the first
	// and the last of the step (a step over many items takes several
	// rounds of roundRows rows); checks of the whole step run once.
	first, last bool
	pairs       []pair // the items compared, in index order
	want        []model.Row
	got         []model.Row
	// differ is set when some pair's rows differ; the model oracle then
	// reports it with the whole outlines.
	differ bool
}

// pair is one compared item: its index and its rows in step.want and
// step.got.
type pair struct {
	i                    int
	wantLo, wantHi       int
	gotLo, gotHi         int
	version              uint64
	item                 *timeline.Item
	hadItem, modelHasOne bool
	// partial is set when the rows are a group's header and only the
	// members the event changed (see partialMin).
	partial bool
}

func (s *step) wantRows(p *pair) []model.Row { return s.want[p.wantLo:p.wantHi] }
func (s *step) gotRows(p *pair) []model.Row  { return s.got[p.gotLo:p.gotHi] }

// stepOracle is one check that looks at each step.
type stepOracle interface {
	observe(p *pass, s *step)
}

func newPass(opts Options) *pass {
	p := &pass{
		opts: opts, fields: fieldSet(opts.Fields),
		model: model.New(model.Config{MetaTools: opts.metaTools(), NoGrouping: opts.NoGrouping, ToolRows: opts.ToolRows}),
		index: map[*timeline.Item]int{}, staleSeen: map[*timeline.Item]bool{},
	}
	p.oracles = []stepOracle{&modelOracle{}, &statusOracle{}, &groupsOracle{}, &noLiveOracle{}, &diagOracle{}}
	if opts.Screen { // first: a finding on a page is named by what the page shows
		p.oracles = append([]stepOracle{&screenOnce{}, &screenSettled{}, &screenFailure{}}, p.oracles...)
	}
	if !opts.NoRender {
		p.oracles = append(p.oracles, newRenderOracle())
	}
	return p
}

func (p *pass) fail(v Violation) {
	if len(p.found) == maxViolations {
		return
	}
	v.end = v.end || p.atEnd
	p.found = append(p.found, v)
	if len(p.found) == maxViolations {
		p.found[len(p.found)-1].Detail += fmt.Sprintf(" (checking stopped after %d violations)", maxViolations)
	}
}

func (p *pass) failf(seq int64, oracle, format string, args ...any) {
	p.fail(Violation{Seq: seq, Oracle: oracle, Detail: fmt.Sprintf(format, args...)})
}

// stopped reports whether the pass should end now.
func (p *pass) stopped() bool {
	return enough(p.opts, p.found)
}

// observe builds the step after ev and runs every oracle on it, in rounds
// of at most roundRows rows (or one item).
func (p *pass) observe(ev *event.Event, tl *timeline.Timeline, end bool) {
	p.n++
	s := &p.step
	s.ev, s.tl, s.end, s.differ = ev, tl, end, false
	s.full = end || p.checkpoint()
	s.first = true
	s.pairs, s.want, s.got = s.pairs[:0], s.want[:0], s.got[:0]
	for _, i := range p.changedItems(tl, s.full) {
		if !s.full || !p.wide(i) {
			p.addPair(s, i)
			p.roundIfFull(s)
			continue
		}
		for lo, n := 0, p.model.GroupSize(i); lo < n; lo += chunkMembers {
			p.places = p.places[:0]
			for k := lo; k < min(lo+chunkMembers, n); k++ {
				p.places = append(p.places, k)
			}
			p.addGroupPart(s, i)
			p.roundIfFull(s)
		}
	}
	s.last = true
	p.round(s)
	if p.ref != nil {
		p.compareReference(ev, tl, end)
	}
}

// roundIfFull runs the oracles on the pairs gathered once they hold
// roundRows rows or more, and starts the next round.
func (p *pass) roundIfFull(s *step) {
	if len(s.want)+len(s.got) < roundRows {
		return
	}
	s.last = false
	p.round(s)
	s.first = false
	s.pairs, s.want, s.got = s.pairs[:0], s.want[:0], s.got[:0]
}

// round runs every oracle on the pairs gathered and remembers what was
// compared whole.
func (p *pass) round(s *step) {
	for _, o := range p.oracles {
		o.observe(p, s)
	}
	for k := range s.pairs {
		// A group compared in part stays due for a whole comparison at
		// the next checkpoint.
		if pr := &s.pairs[k]; pr.i < len(p.cache) && !pr.partial {
			p.cache[pr.i] = seen{pr.item, pr.version}
		}
	}
}

// wide reports whether item i is a group too wide to outline whole at
// once: a checkpoint or the end compares it chunkMembers tools at a time.
func (p *pass) wide(i int) bool {
	return i < p.model.Len() && i < len(p.step.tl.Items) &&
		p.model.GroupSize(i) > chunkMembers && p.step.tl.Items[i].Kind == timeline.ItemToolGroup
}

// checkpoint reports whether this event is a checkpoint (and starts the
// count to the next): every checkpointEvery events, or every as many
// events as the timeline has items or tools, whichever is more.
func (p *pass) checkpoint() bool {
	if p.n-p.checked < max(checkpointEvery, len(p.cache), p.model.Tools()) {
		return false
	}
	p.checked = p.n
	return true
}

// addPair outlines item i of the model and of the engine.
func (p *pass) addPair(s *step, i int) {
	pr := pair{i: i, wantLo: len(s.want), gotLo: len(s.got)}
	if p.partial(s, i) {
		p.places = p.model.ChangedMembers(p.places[:0], i)
		p.addGroupPart(s, i)
		return
	}
	p.wholeRows(s, &pr)
	p.addRows(s, pr)
}

// addGroupPart outlines part of group i, model and engine: its header
// and the tools at p.places.
func (p *pass) addGroupPart(s *step, i int) {
	pr := pair{i: i, wantLo: len(s.want), gotLo: len(s.got)}
	pr.item, pr.hadItem, pr.modelHasOne, pr.partial = s.tl.Items[i], true, true, true
	pr.version = pr.item.Version
	s.want = p.model.GroupRows(s.want, i, p.places)
	s.got = model.MemberRows(s.got, pr.item, p.places)
	p.addRows(s, pr)
}

// addRows masks the rows just outlined for pr and adds the pair.
func (p *pass) addRows(s *step, pr pair) {
	s.want = append(s.want[:pr.wantLo], p.fields.mask(s.want[pr.wantLo:], p.opts.NoGrouping)...)
	s.got = append(s.got[:pr.gotLo], p.fields.mask(s.got[pr.gotLo:], p.opts.NoGrouping)...)
	pr.wantHi, pr.gotHi = len(s.want), len(s.got)
	if !sameRows(s.wantRows(&pr), s.gotRows(&pr)) {
		s.differ = true
	}
	s.pairs = append(s.pairs, pr)
}

// partial reports whether item i is compared in part this step: a group of
// partialMin or more tools on both sides, between checkpoints.
func (p *pass) partial(s *step, i int) bool {
	return !s.full && i < p.model.Len() && i < len(s.tl.Items) &&
		p.model.GroupSize(i) >= partialMin && s.tl.Items[i].Kind == timeline.ItemToolGroup
}

// wholeRows outlines item i of the model and of the engine whole.
func (p *pass) wholeRows(s *step, pr *pair) {
	i := pr.i
	if i < p.model.Len() {
		s.want = p.model.Rows(s.want, i)
		pr.modelHasOne = true
	}
	if i < len(s.tl.Items) {
		pr.item, pr.hadItem = s.tl.Items[i], true
		pr.version = pr.item.Version
		s.got = model.ItemRows(s.got, pr.item, 0, nil)
	}
}

// changedItems lists the top-level items to compare after an event: those
// the model changed, those the engine added, and those the engine changed
// — as it reports them (ChangedItems), or else every item whose pointer or
// version moved (or that carries no version). all compares every item
// whose version moved, and at the end every item.
func (p *pass) changedItems(tl *timeline.Timeline, all bool) []int {
	set := append(p.set[:0], p.model.Changed()...)
	n := len(tl.Items)
	old := min(len(p.cache), n)
	for i := old; i < n; i++ {
		set = append(set, i)
		p.cache = append(p.cache, seen{})
		p.index[tl.Items[i]] = i
	}
	for i := n; i < p.model.Len(); i++ {
		set = append(set, i)
	}
	reported := false
	if ch, ok := p.eng.(changeReporter); ok {
		var items []*timeline.Item
		if items, reported = ch.ChangedItems(); reported {
			for _, it := range items {
				if i, ok := p.index[it]; ok {
					set = append(set, i)
				}
			}
		}
	}
	if !reported || all {
		set = p.scan(set, tl.Items[:old])
	}
	if p.step.end {
		set = set[:0]
		for i := range max(n, p.model.Len()) {
			set = append(set, i)
		}
	}
	slices.Sort(set)
	p.set = slices.Compact(set)
	return p.set
}

// scan adds every item whose pointer or version moved since it was last
// compared, or that has no version.
func (p *pass) scan(set []int, items []*timeline.Item) []int {
	for i, it := range items {
		c := p.cache[i]
		if it != c.item || it.Version != c.version || it.Version == 0 {
			set = append(set, i)
		}
	}
	return set
}

// changeReporter is implemented by engines that can say which top-level
// items changed: the reference engine, and external engines that send
// deltas. ChangedItems returns the items added or changed since its
// previous call (nested items may be listed too and are ignored), and
// false when it cannot tell (then every item's version is compared).
type changeReporter interface {
	ChangedItems() ([]*timeline.Item, bool)
}
