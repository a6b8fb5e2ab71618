package shrink

import (
	"cmp"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// defaultMaxTests is the test budget when [Options.MaxTests] is zero.
const defaultMaxTests = 20000

// Options tune Shrink. Zero values take defaults.
type Options struct {
	// MaxTests bounds how many times fails is called (default 20000). When
	// reached, Shrink returns the best trace so far.
	MaxTests int
}

// Result is what Shrink found.
type Result struct {
	Events []event.Event // the smallest failing trace found, renumbered (seq 1..n)
	Tests  int           // how many candidates were tested
}

// Shrink returns a smaller trace for which fails still reports true. fails
// must be deterministic. The input is not modified. If fails(evs) is false
// for the input, Shrink returns the input renumbered with Tests==1.
//
// fails may keep the slices it is given but must not modify them. The
// first call gets a renumbered copy of the input; every later call gets a
// candidate strictly smaller than the last one accepted. The returned
// events share no memory with the input or with the candidates.
func Shrink(evs []event.Event, fails func([]event.Event) bool, opts Options) Result {
	limit := opts.MaxTests
	if limit <= 0 {
		limit = defaultMaxTests
	}
	s := &shrinker{cur: slices.Clone(evs), fails: fails, limit: limit}
	normalize(s.cur)
	s.tests = 1
	if fails(s.cur) {
		s.run()
	}
	return Result{Events: deepClone(s.cur), Tests: s.tests}
}

// shrinker holds the search state: the smallest failing trace so far and
// the test budget.
type shrinker struct {
	cur   []event.Event
	fails func([]event.Event) bool
	tests int
	limit int
}

// pass is one reduction strategy; it reports whether it made progress.
type pass func(*shrinker) bool

// passes run in this order, cyclically, until every one of them has run
// once on the current trace without progress.
var passes = []pass{
	removeChunks,
	dropTools,
	dropTurns,
	dropKinds,
	dropProgress,
	shortenStrings,
	emptyRaw,
	renameIDs,
	clearOptional,
	swapNeighbours,
}

// run applies the passes until a fixpoint or until the budget is spent. A
// pass that made progress runs again only after all the others, so the loop
// stops once every pass has seen the final trace.
func (s *shrinker) run() {
	idle := 0
	for i := 0; idle < len(passes) && !s.spent(); i = (i + 1) % len(passes) {
		if passes[i](s) {
			idle = 0
		} else {
			idle++
		}
	}
}

// spent reports whether the test budget is used up.
func (s *shrinker) spent() bool { return s.tests >= s.limit }

// try tests cand, which must be a fresh slice, and keeps it when it still
// fails. Candidates that are not strictly smaller than the current trace
// are rejected without calling fails.
func (s *shrinker) try(cand []event.Event) bool {
	if s.spent() {
		return false
	}
	normalize(cand)
	if !less(cand, s.cur) {
		return false
	}
	s.tests++
	if !s.fails(cand) {
		return false
	}
	s.cur = cand
	return true
}

// tryDrop tests the current trace without the events drop selects.
func (s *shrinker) tryDrop(drop func(*event.Event) bool) bool {
	n := 0
	for i := range s.cur {
		if drop(&s.cur[i]) {
			n++
		}
	}
	if n == 0 {
		return false
	}
	cand := make([]event.Event, 0, len(s.cur)-n)
	for i := range s.cur {
		if !drop(&s.cur[i]) {
			cand = append(cand, s.cur[i])
		}
	}
	return s.try(cand)
}

// tryEdit tests the current trace with edit applied to a copy of event i.
func (s *shrinker) tryEdit(i int, edit func(*event.Event)) bool {
	cand := slices.Clone(s.cur)
	edit(&cand[i])
	return s.try(cand)
}

// normalize renumbers seq 1..n and raises each t to at least its
// predecessor's, so every edit leaves a well-ordered trace.
func normalize(evs []event.Event) {
	for i := range evs {
		evs[i].Seq = int64(i + 1)
		if i > 0 && evs[i].T < evs[i-1].T {
			evs[i].T = evs[i-1].T
		}
	}
}

// less is the well-founded order every accepted candidate descends: fewer
// events first, then the first differing event decides by [cmpEvent].
func less(a, b []event.Event) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if c := cmpEvent(&a[i], &b[i]); c != 0 {
			return c < 0
		}
	}
	return false
}

// cmpEvent orders events by kind rank, then content size, then id and
// parent. Seq and t are left out: they are derived from the position.
func cmpEvent(a, b *event.Event) int {
	if c := cmp.Compare(kindRank(a.Kind), kindRank(b.Kind)); c != 0 {
		return c
	}
	if c := cmp.Compare(size(a), size(b)); c != 0 {
		return c
	}
	if c := strings.Compare(a.ID, b.ID); c != 0 {
		return c
	}
	return strings.Compare(a.Parent, b.Parent)
}

// kinds lists the v1 kinds in rank order; unknown kinds rank after them.
var kinds = []event.Kind{
	event.KindTurnStart, event.KindUser, event.KindThinking, event.KindText,
	event.KindToolStart, event.KindToolProgress, event.KindToolDone,
	event.KindPermission, event.KindCancel, event.KindError, event.KindTurnEnd,
}

func kindRank(k event.Kind) int {
	if i := slices.Index(kinds, k); i >= 0 {
		return i
	}
	return len(kinds)
}

// size is the number of content bytes of an event, plus one for a duration
// and one per extra field, so that clearing any field makes it smaller.
func size(ev *event.Event) int {
	n := len(ev.Role) + len(ev.Text) + len(ev.ID) + len(ev.Name) +
		len(ev.Args) + len(ev.Batch) + len(ev.Parent) + len(ev.Output) +
		len(ev.Details) + len(ev.Error) + len(ev.State) + len(ev.Reason) +
		len(ev.Message)
	if ev.DurationMS != nil {
		n++
	}
	for _, f := range ev.Extra {
		n += 1 + len(f.Key) + len(f.Value)
	}
	return n
}

// deepClone copies evs with fresh byte slices, durations and extras.
func deepClone(evs []event.Event) []event.Event {
	out := slices.Clone(evs)
	for i := range out {
		ev := &out[i]
		ev.Args = bytesClone(ev.Args)
		ev.Details = bytesClone(ev.Details)
		if ev.DurationMS != nil {
			d := *ev.DurationMS
			ev.DurationMS = &d
		}
		if ev.Extra != nil {
			ev.Extra = slices.Clone(ev.Extra)
			for j := range ev.Extra {
				ev.Extra[j].Value = bytesClone(ev.Extra[j].Value)
			}
		}
	}
	return out
}

// bytesClone is slices.Clone that keeps nil nil and empty empty.
func bytesClone(b []byte) []byte {
	if b == nil {
		return nil
	}
	return append([]byte{}, b...)
}
