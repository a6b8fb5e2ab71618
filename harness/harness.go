package harness

import (
	"fmt"
	"maps"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// Engine is what the harness drives: it applies events in trace order
// (Apply), applies the end-of-stream rule (Finish), and exposes its current
// timeline (Timeline). It is the same interface an engine served over the
// protocol implements (engineproto.Engine).
//
// Optional methods the harness uses when present: Close() error (release
// a process), Err() error (an engine failure, reported as OracleEngine),
// and Replay (see Replayer).
type Engine = engineproto.Engine

// Oracle names, after SPEC §5.
const (
	OraclePairing     = "pairing"     // §5.1: an event for id X changes only tool X
	OracleStatus      = "status"      // §5.2: terminal states never change; only allowed moves
	OracleGroups      = "groups"      // §5.3: groups are exactly the batches; a group holds 2+ tools
	OracleOnce        = "once"        // §5.4: every started tool appears exactly once
	OracleNoLive      = "no-live"     // §5.5: after turn_end or cancel, no tool is live
	OracleOrder       = "order"       // §5.6: the final timeline does not depend on result order
	OracleDeterminism = "determinism" // §5.8: the same trace gives the same timeline
	OracleIncremental = "incremental" // §5.9: incremental render equals a fresh render
	OracleModel       = "model"       // the right tool is in the wrong state (status, output, progress, error)
	OracleDiagnostics = "diagnostics" // the anomalies reported are not the ones the trace holds
	OraclePanic       = "panic"       // §5.10: the engine panicked
	OracleEngine      = "engine"      // §5.10: an external engine crashed, hung or broke the protocol
	OracleReference   = "reference"   // --diff: the engine differs from the reference engine
)

// Oracles lists every oracle name a violation can carry.
var Oracles = []string{
	OraclePairing, OracleStatus, OracleGroups, OracleOnce, OracleNoLive, OracleOrder,
	OracleDeterminism, OracleIncremental, OracleModel, OracleDiagnostics, OraclePanic,
	OracleEngine, OracleReference, OracleRebuild, OracleReconnect, OracleIdempot,
	OracleReported, OracleNondeterminism,
}

// Violation is one failed oracle: the event after which it failed, which
// oracle, what was seen, and where it applies a (-want +got) diff of the
// tool outline (want is the harness's model).
type Violation struct {
	Seq    int64
	Oracle string
	Detail string
	Diff   string
}

// String formats the violation as "after seq N: oracle: detail", followed
// by the diff when there is one.
func (v Violation) String() string {
	s := fmt.Sprintf("after seq %d: %s: %s", v.Seq, v.Oracle, v.Detail)
	if v.Diff != "" {
		s += "\n(-want +got):\n" + v.Diff
	}
	return s
}

// Options tune a check. The zero value checks everything at width 80.
type Options struct {
	// MetaTools names the meta tools the model expects to stand alone; nil
	// means the default set of SPEC §2.
	MetaTools []string
	// First stops at the first violation (campaigns and shrinking).
	First bool
	// NoRender skips the incremental render oracle (§5.9), for engines
	// checked through their timelines only.
	NoRender bool
	// Fields lists the optional timeline fields the engine fills
	// (engineproto.AllFields names them); nil means all. The others are
	// left out of every comparison.
	Fields []string
	// Reference, when set, runs a second engine in lock step and reports
	// every difference from it (OracleReference), in the declared fields.
	Reference func() Engine
}

// DefaultMetaTools are the meta tool names of SPEC §2.
var DefaultMetaTools = []string{"todowrite", "TodoWrite", "todo_write", "update_plan"}

// Check replays evs through a fresh engine from newEngine, checking every
// oracle after every event and after Finish, and then replays them through
// a second fresh engine to check determinism. It returns every violation.
func Check(newEngine func() Engine, evs []event.Event) []Violation {
	return CheckWith(newEngine, evs, Options{})
}

// CheckWith is Check with options. A panicking engine is reported as an
// OraclePanic violation at the event that made it panic; an engine that
// reports a failure through an Err() error method (an external engine that
// crashed, hung or misbehaved) as an OracleEngine violation.
func CheckWith(newEngine func() Engine, evs []event.Event, opts Options) []Violation {
	found, _ := checkWith(newEngine, evs, opts)
	return found
}

// checkWith is CheckWith that also returns the final timeline (after the
// end-of-stream rule), or nil when the check stopped before it.
func checkWith(newEngine func() Engine, evs []event.Event, opts Options) (found []Violation, final *timeline.Timeline) {
	c := newChecker(opts)
	defer func() {
		if r := recover(); r != nil {
			found, final = append(c.found, Violation{Seq: c.seq, Oracle: OraclePanic, Detail: fmt.Sprint(r)}), nil
		}
	}()
	eng := newEngine()
	defer closeEngine(eng)
	var ref Engine
	if opts.Reference != nil {
		ref = opts.Reference()
		defer closeEngine(ref)
	}
	d := newDriver(eng, evs)
	for i := range evs {
		ev := &evs[i]
		c.seq = ev.Seq
		tl, ok := d.apply(i)
		if !ok {
			c.engineFailed(ev, d.err)
			return c.found, nil
		}
		c.model.apply(ev)
		c.observe(ev, tl, ref)
		if opts.First && len(c.found) > 0 {
			return c.found, nil
		}
	}
	if !c.finish(d, evs, ref) {
		return c.found, nil
	}
	if opts.First && len(c.found) > 0 {
		return c.found, d.last
	}
	c.determinism(newEngine, evs, d.last)
	return c.found, d.last
}

// finish applies the end-of-stream rule and checks the result. It reports
// false when the engine failed.
func (c *checker) finish(d *driver, evs []event.Event, ref Engine) bool {
	end := &event.Event{Seq: lastSeq(evs), Kind: endOfStream}
	tl, ok := d.apply(len(evs))
	if !ok {
		c.engineFailed(end, d.err)
		return false
	}
	c.model.finish()
	if ref != nil {
		ref.Finish()
	}
	c.observe(end, tl, ref)
	c.finalDiagnostics(tl)
	return true
}

func newChecker(opts Options) *checker {
	meta := opts.MetaTools
	if meta == nil {
		meta = DefaultMetaTools
	}
	c := &checker{started: map[string]int{}, model: newModel(meta), opts: opts, fields: fieldSet(opts.Fields)}
	if !opts.NoRender {
		c.inc = render.NewIncremental(render.Options{Width: 80, Output: true})
	}
	return c
}

// engineFailed reports an engine's own failure at an event.
func (c *checker) engineFailed(ev *event.Event, err error) {
	c.found = append(c.found, Violation{Seq: ev.Seq, Oracle: OracleEngine, Detail: fmt.Sprintf("at %s: %v", describe(ev), err)})
}

// endOfStream is the pseudo-kind of the check after Finish.
const endOfStream event.Kind = "end_of_stream"

func lastSeq(evs []event.Event) int64 {
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq
}

type checker struct {
	prev       []timeline.Status // status per tool, by start order, at the last matching snapshot
	started    map[string]int    // valid tool_start events per id
	found      []Violation
	model      *model
	opts       Options
	seq        int64
	want, got  []row // reused outline buffers
	diagsSeen  int   // engine diagnostics already compared
	modelDiags int   // model diagnostics already compared
	shown      map[string]int
	fields     fields
	inc        *render.Incremental
	refRows    []row
	refGot     []row
}

func (c *checker) fail(seq int64, oracle, format string, args ...any) {
	c.found = append(c.found, Violation{Seq: seq, Oracle: oracle, Detail: fmt.Sprintf(format, args...)})
}

// observe checks one snapshot, taken after ev.
func (c *checker) observe(ev *event.Event, tl *timeline.Timeline, ref Engine) {
	if ev.Kind == event.KindToolStart && ev.ID != "" {
		c.started[ev.ID]++
	}
	c.want = c.fields.mask(c.model.rows(c.want[:0], c.model.top, 0))
	c.got = c.fields.mask(engineRows(c.got[:0], tl.Items, 0))
	c.checkShape(ev.Seq)
	c.checkOnce(ev.Seq)
	if sameShape(c.want, c.got) {
		c.checkStatuses(ev.Seq)
	}
	if !sameRows(c.want, c.got) {
		c.found = append(c.found, Violation{Seq: ev.Seq, Oracle: classify(c.want, c.got, ev),
			Detail: fmt.Sprintf("after %s the tools differ from the model", describe(ev)), Diff: rowDiff(c.want, c.got)})
	}
	c.compareDiagnostics(ev, tl)
	if ev.Kind == event.KindTurnEnd || ev.Kind == event.KindCancel || ev.Kind == endOfStream {
		for _, r := range c.got {
			if r.tool() && !r.Status.Terminal() {
				c.fail(ev.Seq, OracleNoLive, "tool %s is still %s after %s", r.ID, r.Status, ev.Kind)
			}
		}
	}
	if c.inc != nil {
		if got, want := string(c.inc.Bytes(tl)), render.Render(tl, render.Options{Width: 80, Output: true}); got != want {
			c.fail(ev.Seq, OracleIncremental, "incremental render differs from a fresh render")
		}
	}
	if ref != nil {
		c.compareReference(ev, ref, tl)
	}
}

// checkShape: a group holds two or more tools.
func (c *checker) checkShape(seq int64) {
	for _, r := range c.got {
		if r.Kind == "group" && r.Members < 2 {
			c.fail(seq, OracleGroups, "a tool_group holds %d tools", r.Members)
		}
	}
}

// allowed lists the non-terminal status moves of docs/timeline.md.
var allowed = map[[2]timeline.Status]bool{
	{timeline.StatusRunning, timeline.StatusPending}: true,
	{timeline.StatusPending, timeline.StatusRunning}: true,
}

// checkStatuses compares each tool's status with the last snapshot. Tools
// are known by start order, which the model supplies once the outline
// matches it.
func (c *checker) checkStatuses(seq int64) {
	for i, r := range c.want {
		if !r.tool() {
			continue
		}
		after := c.got[i].Status
		for len(c.prev) <= r.key {
			c.prev = append(c.prev, "")
		}
		before := c.prev[r.key]
		c.prev[r.key] = after
		switch {
		case before == "" || before == after:
		case before.Terminal():
			c.fail(seq, OracleStatus, "tool %s went from terminal %s to %s", r.ID, before, after)
		case !after.Terminal() && !allowed[[2]timeline.Status{before, after}]:
			c.fail(seq, OracleStatus, "tool %s moved %s → %s", r.ID, before, after)
		}
	}
}

// checkOnce: each id is shown as many times as it was started. The counts
// are compared first; messages (in sorted id order) only on a mismatch.
func (c *checker) checkOnce(seq int64) {
	if c.shown == nil {
		c.shown = map[string]int{}
	}
	clear(c.shown)
	for _, r := range c.got {
		if r.tool() {
			c.shown[r.ID]++
		}
	}
	if maps.Equal(c.shown, c.started) {
		return
	}
	for _, id := range slices.Sorted(maps.Keys(c.started)) {
		if n := c.started[id]; c.shown[id] != n {
			c.fail(seq, OracleOnce, "tool %s started %d times, shown %d times", id, n, c.shown[id])
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.shown)) {
		if c.started[id] == 0 {
			c.fail(seq, OracleOnce, "tool %s shown %d times but never started", id, c.shown[id])
		}
	}
}

// determinism replays the trace through a second engine and compares the
// final timelines.
func (c *checker) determinism(newEngine func() Engine, evs []event.Event, first *timeline.Timeline) {
	eng := newEngine()
	defer closeEngine(eng)
	d := newDriver(eng, evs)
	var last *timeline.Timeline
	for i := 0; i <= len(evs); i++ {
		tl, ok := d.apply(i)
		if !ok {
			c.engineFailed(&event.Event{Seq: lastSeq(evs), Kind: "replay"}, d.err)
			return
		}
		last = tl
	}
	if !equalTimelines(first, last) {
		c.found = append(c.found, Violation{Seq: lastSeq(evs), Oracle: OracleDeterminism,
			Detail: "a second replay gave a different timeline (-first +second)", Diff: Diff(first, last)})
	}
}

// compareDiagnostics compares the diagnostics an event added with the
// model's.
func (c *checker) compareDiagnostics(ev *event.Event, tl *timeline.Timeline) {
	if ev.Kind == endOfStream || !c.fields.diagnostics {
		return
	}
	md, ed := diagList(c.model.diags[c.modelDiags:], true), diagList(tl.Diagnostics[min(c.diagsSeen, len(tl.Diagnostics)):], true)
	if !slices.Equal(md, ed) {
		c.found = append(c.found, Violation{Seq: ev.Seq, Oracle: OracleDiagnostics,
			Detail: fmt.Sprintf("after %s: the diagnostics added differ from the anomaly it holds", describe(ev)),
			Diff:   cmp.Diff(md, ed)})
	}
	c.modelDiags, c.diagsSeen = len(c.model.diags), len(tl.Diagnostics)
}

// finalDiagnostics compares every diagnostic with the model's at the end.
func (c *checker) finalDiagnostics(tl *timeline.Timeline) {
	if !c.fields.diagnostics {
		return
	}
	want, got := diagList(c.model.diags, true), diagList(tl.Diagnostics, true)
	if !slices.Equal(want, got) {
		c.found = append(c.found, Violation{Seq: c.model.lastSeq, Oracle: OracleDiagnostics,
			Detail: "the diagnostics differ from the anomalies in the trace", Diff: cmp.Diff(want, got)})
	}
}

// describe names an event for messages: "tool_done id=t1 (seq 7)".
func describe(ev *event.Event) string {
	if ev.Kind == endOfStream {
		return "the end of the stream"
	}
	if ev.ID != "" || toolEvent(ev.Kind) || ev.Kind == event.KindToolStart {
		return fmt.Sprintf("%s id=%q (seq %d)", ev.Kind, ev.ID, ev.Seq)
	}
	return fmt.Sprintf("%s (seq %d)", ev.Kind, ev.Seq)
}
