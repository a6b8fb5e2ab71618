package shrink

import (
	"slices"
	"unicode/utf8"

	"github.com/toolsim/toolsim/event"
)

// removeChunks is ddmin's complement removal: it removes runs of k events
// at every offset, halving k from half the trace down to single events.
func removeChunks(s *shrinker) bool {
	progress := false
	for k := max(len(s.cur)/2, 1); k >= 1 && !s.spent(); k /= 2 {
		for i := 0; i < len(s.cur) && !s.spent(); {
			j := min(i+k, len(s.cur))
			if s.try(without(s.cur, i, j)) {
				progress = true
			} else {
				i = j
			}
		}
	}
	return progress
}

// without returns a fresh copy of evs without the events in [i, j).
func without(evs []event.Event, i, j int) []event.Event {
	out := make([]event.Event, 0, len(evs)-(j-i))
	out = append(out, evs[:i]...)
	return append(out, evs[j:]...)
}

// isTool reports whether events of kind k belong to a tool id.
func isTool(k event.Kind) bool {
	switch k {
	case event.KindToolStart, event.KindToolProgress, event.KindToolDone, event.KindPermission:
		return true
	}
	return false
}

// dropTools removes each tool at once: its start, progress, permission and
// done events, and those of its child tools, transitively.
func dropTools(s *shrinker) bool {
	progress := false
	for _, id := range distinct(s.cur, func(ev *event.Event) string { return toolID(ev) }) {
		if s.spent() {
			break
		}
		tree := subtree(s.cur, id)
		if s.tryDrop(func(ev *event.Event) bool {
			return isTool(ev.Kind) && (tree[ev.ID] || ev.Kind == event.KindToolStart && tree[ev.Parent])
		}) {
			progress = true
		}
	}
	return progress
}

// toolID is the id of a tool event, or "" for other kinds.
func toolID(ev *event.Event) string {
	if isTool(ev.Kind) {
		return ev.ID
	}
	return ""
}

// subtree returns id and the ids of the tools started under it, at any
// depth.
func subtree(evs []event.Event, id string) map[string]bool {
	tree := map[string]bool{id: true}
	for grew := true; grew; {
		grew = false
		for i := range evs {
			ev := &evs[i]
			if ev.Kind == event.KindToolStart && ev.ID != "" && tree[ev.Parent] && !tree[ev.ID] {
				tree[ev.ID] = true
				grew = true
			}
		}
	}
	return tree
}

// distinct returns the non-empty keys of evs in order of first appearance.
func distinct(evs []event.Event, key func(*event.Event) string) []string {
	var out []string
	seen := map[string]bool{}
	for i := range evs {
		if k := key(&evs[i]); k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// dropTurns removes each turn at once, from its turn_start through its
// turn_end (or up to the next turn_start, or the end of the trace).
func dropTurns(s *shrinker) bool {
	progress := false
	for i := 0; i < len(s.cur) && !s.spent(); i++ {
		if s.cur[i].Kind != event.KindTurnStart {
			continue
		}
		if s.try(without(s.cur, i, turnEnd(s.cur, i))) {
			progress = true
			i--
		}
	}
	return progress
}

// turnEnd returns the index just past the turn starting at i.
func turnEnd(evs []event.Event, i int) int {
	for j := i + 1; j < len(evs); j++ {
		switch evs[j].Kind {
		case event.KindTurnEnd:
			return j + 1
		case event.KindTurnStart:
			return j
		}
	}
	return len(evs)
}

// dropKinds removes all events of one kind at once, for each kind present.
func dropKinds(s *shrinker) bool {
	progress := false
	for _, k := range distinct(s.cur, func(ev *event.Event) string { return string(ev.Kind) }) {
		if s.tryDrop(func(ev *event.Event) bool { return string(ev.Kind) == k }) {
			progress = true
		}
	}
	return progress
}

// dropProgress removes all tool_progress events of one id at once.
func dropProgress(s *shrinker) bool {
	progressID := func(ev *event.Event) string {
		if ev.Kind == event.KindToolProgress {
			return ev.ID
		}
		return ""
	}
	progress := false
	for _, id := range distinct(s.cur, progressID) {
		if s.tryDrop(func(ev *event.Event) bool { return ev.Kind == event.KindToolProgress && ev.ID == id }) {
			progress = true
		}
	}
	return progress
}

// textFields are the free-text fields shortenStrings works on.
var textFields = []func(*event.Event) *string{
	func(ev *event.Event) *string { return &ev.Text },
	func(ev *event.Event) *string { return &ev.Output },
	func(ev *event.Event) *string { return &ev.Error },
	func(ev *event.Event) *string { return &ev.Message },
	func(ev *event.Event) *string { return &ev.Reason },
}

// shortenStrings tries each free-text field empty, then trims it from the
// front and from the back by halving amounts.
func shortenStrings(s *shrinker) bool {
	progress := false
	for i := 0; i < len(s.cur) && !s.spent(); i++ {
		for _, f := range textFields {
			if shortenField(s, i, f) {
				progress = true
			}
		}
	}
	return progress
}

// shortenField shortens one field of event i. Trimming by k = 2^m, ..., 2,
// 1 bytes from one end removes the longest removable prefix (or suffix) in
// about log2(len) tests when the predicate is monotone, so a predicate that
// needs a substring reduces the field to exactly that substring.
func shortenField(s *shrinker, i int, f func(*event.Event) *string) bool {
	if *f(&s.cur[i]) == "" {
		return false
	}
	if s.tryEdit(i, func(ev *event.Event) { *f(ev) = "" }) {
		return true
	}
	progress := false
	for _, fromEnd := range []bool{false, true} {
		for k := topPow2(len(*f(&s.cur[i])) - 1); k >= 1 && !s.spent(); k /= 2 {
			v := *f(&s.cur[i])
			if w := trim(v, k, fromEnd); w != v && s.tryEdit(i, func(ev *event.Event) { *f(ev) = w }) {
				progress = true
			}
		}
	}
	return progress
}

// topPow2 returns the largest power of two not above n, or 0.
func topPow2(n int) int {
	k := 0
	for p := 1; p <= n; p *= 2 {
		k = p
	}
	return k
}

// trim removes about k bytes from the front (or the back) of v, cutting only
// at rune boundaries so valid UTF-8 stays valid.
func trim(v string, k int, fromEnd bool) string {
	if k >= len(v) {
		return v
	}
	cut := k
	if fromEnd {
		cut = len(v) - k
	}
	for cut < len(v) && !utf8.RuneStart(v[cut]) {
		cut++
	}
	if fromEnd {
		return v[:cut]
	}
	return v[cut:]
}

// emptyRaw replaces Args with {} and drops Details (or makes it {}).
func emptyRaw(s *shrinker) bool {
	progress := false
	for i := 0; i < len(s.cur) && !s.spent(); i++ {
		if len(s.cur[i].Args) > 2 && s.tryEdit(i, func(ev *event.Event) { ev.Args = []byte("{}") }) {
			progress = true
		}
		if s.cur[i].Details == nil {
			continue
		}
		if s.tryEdit(i, func(ev *event.Event) { ev.Details = nil }) ||
			len(s.cur[i].Details) > 2 && s.tryEdit(i, func(ev *event.Event) { ev.Details = []byte("{}") }) {
			progress = true
		}
	}
	return progress
}

// renameIDs renames each id, in every event's ID and Parent at once, to the
// first short name (a, b, ..., z, aa, ab, ...) not yet in use, when that
// name is shorter, or as long and earlier in byte order.
func renameIDs(s *shrinker) bool {
	progress := false
	ids := distinct(s.cur, func(ev *event.Event) string { return ev.ID })
	for _, p := range distinct(s.cur, func(ev *event.Event) string { return ev.Parent }) {
		if !slices.Contains(ids, p) {
			ids = append(ids, p)
		}
	}
	for _, id := range ids {
		if s.spent() {
			break
		}
		name := freeName(s.cur)
		if len(name) > len(id) || len(name) == len(id) && name >= id {
			continue
		}
		if s.try(renamed(s.cur, id, name)) {
			progress = true
		}
	}
	return progress
}

// freeName returns the first short name used as no ID or Parent in evs.
func freeName(evs []event.Event) string {
	used := map[string]bool{}
	for i := range evs {
		used[evs[i].ID] = true
		used[evs[i].Parent] = true
	}
	for n := 0; ; n++ {
		if name := shortName(n); !used[name] {
			return name
		}
	}
}

// shortName returns the n-th name of a, ..., z, aa, ..., az, ba, ...
func shortName(n int) string {
	var b []byte
	for n++; n > 0; n = (n - 1) / 26 {
		b = append(b, byte('a'+(n-1)%26))
	}
	slices.Reverse(b)
	return string(b)
}

// renamed returns a copy of evs with id renamed to name in ID and Parent.
func renamed(evs []event.Event, id, name string) []event.Event {
	out := slices.Clone(evs)
	for i := range out {
		if out[i].ID == id {
			out[i].ID = name
		}
		if out[i].Parent == id {
			out[i].Parent = name
		}
	}
	return out
}

// clearOptional clears Batch, Parent, DurationMS and Extra, one at a time.
func clearOptional(s *shrinker) bool {
	edits := []struct {
		set  func(*event.Event) bool
		edit func(*event.Event)
	}{
		{func(ev *event.Event) bool { return ev.Batch != "" }, func(ev *event.Event) { ev.Batch = "" }},
		{func(ev *event.Event) bool { return ev.Parent != "" }, func(ev *event.Event) { ev.Parent = "" }},
		{func(ev *event.Event) bool { return ev.DurationMS != nil }, func(ev *event.Event) { ev.DurationMS = nil }},
		{func(ev *event.Event) bool { return ev.Extra != nil }, func(ev *event.Event) { ev.Extra = nil }},
	}
	progress := false
	for i := 0; i < len(s.cur) && !s.spent(); i++ {
		for _, e := range edits {
			if e.set(&s.cur[i]) && s.tryEdit(i, e.edit) {
				progress = true
			}
		}
	}
	return progress
}

// swapNeighbours swaps adjacent events when the later one is smaller under
// cmpEvent, moving the trace toward a canonical order. Each event keeps the
// t of the position it moves to, so t stays non-decreasing.
func swapNeighbours(s *shrinker) bool {
	progress := false
	for i := 0; i+1 < len(s.cur) && !s.spent(); i++ {
		if cmpEvent(&s.cur[i+1], &s.cur[i]) >= 0 {
			continue
		}
		cand := slices.Clone(s.cur)
		cand[i], cand[i+1] = cand[i+1], cand[i]
		cand[i].T, cand[i+1].T = s.cur[i].T, s.cur[i+1].T
		if s.try(cand) {
			progress = true
		}
	}
	return progress
}
