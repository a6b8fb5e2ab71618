package sim

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// Options shape a generated scenario. Zero fields take the defaults noted.
type Options struct {
	Tools  int        // most tools in one batch (default 4)
	Turns  int        // most assistant turns (default 3)
	Faults fault.List // the faults that may be switched on
	// Features limits what the scenario may hold (nil: every feature). A
	// fault that needs a feature that is off is never injected
	// ([FeatureList.Usable]).
	Features FeatureList
	// Swarm draws, per seed, which of Faults and which of the enabled
	// features (batch ids, permissions, sub-agents, delegation, thinking,
	// stream errors) are switched on, so that rare interactions are not
	// drowned out by everything at once.
	Swarm bool
	// Shapes are the trace shapes that may be drawn (nil: DefaultShapes;
	// empty: none). Under Swarm each seed draws a subset.
	Shapes []Shape
	// Contract lists what the engine's real upstream guarantees: no fault
	// and no shape that breaks a guarantee is drawn ([contract.Guarantee]),
	// so every trace is inside the contract.
	Contract contract.List
}

func (o Options) withDefaults() Options {
	if o.Tools <= 0 {
		o.Tools = 4
	}
	if o.Turns <= 0 {
		o.Turns = 3
	}
	return o
}

// Scenario is one generated scenario: the trace it schedules to and what
// the harness needs to check it.
type Scenario struct {
	Seed    uint64
	Options Options
	Events  []event.Event
	// On lists the faults switched on for this seed (all of Options.Faults
	// unless Swarm drew a subset).
	On fault.List
	// Injected counts how often each fault was actually injected into the
	// events (a fault switched on may find no place to land).
	Injected map[fault.Fault]int
	// Shapes counts how often each shape landed in the events, by name
	// ([Shape]).
	Shapes map[string]int
	// LogFaults are the persistence faults the reconstruction oracle applies.
	LogFaults fault.List
	// ReconnectAt, when > 0, is the number of events to rebuild from the log
	// before going on live (the reconnect oracle); 0 for none.
	ReconnectAt int
	// CrashAt, when > 0, is the number of events after which an engine
	// that can crash is killed and resumed (the crash oracle): some tool
	// runs then. 0 for none.
	CrashAt int
	// BatchIDs reports whether every tool call carries a batch id.
	BatchIDs bool
}

// features are the non-fault knobs of a seed: the ones it draws, and the
// ones Options.Features switches off for every seed.
type features struct {
	batchIDs, permissions, children, delegation, thinking, errors bool
	text, user, progress, meta                                    bool
}

// gen is the state of one generation.
type gen struct {
	rng      *rand.Rand
	seed     uint64
	opts     Options
	on       faultSet
	feat     features
	ids      int
	pastIDs  []string
	injected map[fault.Fault]int
	evs      []event.Event
	now      int64
	names    []string // the tool names calls draw from
	shapeSet map[Shape]bool
	planned  map[string]bool // every id planned so far
	inBatch  map[string]bool // the ids of the batch being planned
	last     bool            // the batch being planned is its turn's last
	tags     []tag           // what was counted on which event
	shapes   map[string]int
	actBuf   []action // reused by every batch
	args     []byte   // backing store of every call's args
}

// Generate builds the scenario of one seed. The same seed and options give
// the same scenario, byte for byte, on any machine.
func Generate(seed uint64, opts Options) *Scenario {
	return GenerateFrom(rand.NewPCG(seed, 0x7001_5117), seed, opts)
}

// GenerateFrom builds a scenario drawing every choice from src, recorded
// as coming from seed. Fuzz targets pass a source that replays fuzzer
// bytes ([BytesSource]), so coverage-guided mutation steers the choices.
func GenerateFrom(src rand.Source, seed uint64, opts Options) *Scenario {
	opts = opts.withDefaults()
	g := &gen{rng: rand.New(src), seed: seed, opts: opts, injected: map[fault.Fault]int{}, shapes: map[string]int{}, planned: map[string]bool{}, inBatch: map[string]bool{}}
	g.drawSwitches()
	g.drawShapes()
	plan := g.plan()
	size, batch := plan.size()
	g.evs = eventScratch.take(size)
	g.actBuf = actionScratch.take(batch)
	g.schedule(plan)
	actionScratch.put(g.actBuf)
	g.actBuf = nil
	// A stream cut short is a missing result for every call still live:
	// only with that fault on, so that a fault list without it never ends
	// a trace mid-turn.
	if g.shapeOn(ShapeTruncated) && g.on[fault.MissingResult] && g.chance(3) {
		g.truncate()
	}
	// The plan's size is an upper bound, about twice the events made: the
	// scenario gets an exact copy and the scratch goes back to the pool.
	buf := g.evs
	g.evs = slices.Clone(buf)
	eventScratch.put(buf)
	sc := &Scenario{
		Seed: seed, Options: opts, Events: g.evs, On: g.on.list(),
		Injected: g.injected, Shapes: g.shapes, BatchIDs: AllBatched(g.evs),
	}
	for _, f := range sc.On {
		if f.IsLog() && (!g.opts.Swarm || g.rng.IntN(2) == 0) {
			sc.LogFaults = append(sc.LogFaults, f)
			if appliesTo(f, g.evs) {
				g.injected[f]++
			}
		}
	}
	if g.on[fault.Reconnect] && len(g.evs) > 1 {
		sc.ReconnectAt = 1 + g.rng.IntN(len(g.evs)-1)
		g.injected[fault.Reconnect]++
	}
	if g.on[fault.Crash] {
		if sc.CrashAt = drawCrash(seed, g.evs); sc.CrashAt > 0 {
			g.injected[fault.Crash]++
		}
	}
	return sc
}

// appliesTo reports whether a persistence fault has anything to act on in
// the trace: sub-agent blocks need sub-agent calls, late text needs text,
// collapsed lifecycles need tool calls. The others act on any log.
func appliesTo(f fault.Fault, evs []event.Event) bool {
	need := func(ok func(ev *event.Event) bool) bool {
		for i := range evs {
			if ok(&evs[i]) {
				return true
			}
		}
		return false
	}
	switch f {
	case fault.SubagentBlock:
		return need(func(ev *event.Event) bool { return ev.Kind == event.KindToolStart && ev.Parent != "" })
	case fault.LateText:
		return need(func(ev *event.Event) bool { return ev.Kind == event.KindText })
	case fault.Collapse:
		return need(func(ev *event.Event) bool { return ev.Kind == event.KindToolStart })
	}
	return true
}

// AllBatched reports whether every tool_start of a trace carries a batch
// id (collapsed lifecycles are then recoverable).
func AllBatched(evs []event.Event) bool {
	for i := range evs {
		if evs[i].Kind == event.KindToolStart && evs[i].Batch == "" {
			return false
		}
	}
	return true
}

// drawSwitches decides which faults and features this seed has.
func (g *gen) drawSwitches() {
	fs := g.opts.Features.set()
	g.on = make(faultSet, len(g.opts.Faults))
	for _, f := range g.opts.Faults {
		if f == fault.Crash {
			g.on[f] = crashOn(g.seed, g.opts)
			continue
		}
		// The coin is drawn for every fault, so that switching features off
		// leaves the other faults' coins alone.
		if (!g.opts.Swarm || g.rng.IntN(2) == 0) && g.opts.Features.Usable(f) && !g.opts.Contract.RulesOut(f) {
			g.on[f] = true
		}
	}
	coin := func(f Feature) bool { return (!g.opts.Swarm || g.rng.IntN(2) == 0) && fs.has(f) }
	g.feat = features{
		batchIDs: g.rng.IntN(2) == 0, permissions: coin(FeaturePermissions), children: coin(FeatureSubagents),
		delegation: coin(FeatureDelegation) && fs.has(FeatureProgress), thinking: coin(FeatureThinking),
		errors: g.opts.Swarm && g.rng.IntN(4) == 0 && fs.has(FeatureErrors),
		text:   fs.has(FeatureText), user: fs.has(FeatureUser), progress: fs.has(FeatureProgress), meta: fs.has(FeatureMeta),
	}
	g.names = toolNames
	if !g.feat.meta {
		g.names = plainToolNames
	}
}

// chance reports true with probability 1/n.
func (g *gen) chance(n int) bool { return g.rng.IntN(n) == 0 }

func (g *gen) plan() *scenarioPlan {
	p := &scenarioPlan{}
	for i := range 1 + g.rng.IntN(g.opts.Turns) {
		p.Turns = append(p.Turns, g.turn(i))
	}
	return p
}

var userTexts = []string{"please look at the failing test", "fix the build", "why is CI red?", "add a flag for verbose output"}

func (g *gen) turn(i int) turnPlan {
	t := turnPlan{User: userTexts[g.rng.IntN(len(userTexts))], Text: []string{"Let me check ", "these files."}}
	if !g.feat.user {
		t.User = ""
	}
	if !g.feat.text {
		t.Text = nil
	}
	if g.feat.thinking && g.chance(2) {
		t.Thinking = []string{"The failure ", "is in the parser."}
	}
	n := 1 + g.rng.IntN(2)
	t.Batches = make([]batchPlan, 0, n)
	for b := range n {
		g.last = b == n-1
		t.Batches = append(t.Batches, g.batch(i, b))
	}
	if g.chance(2) && g.feat.text {
		t.Closing = "Done."
	}
	if g.feat.errors && g.chance(3) {
		t.Error = "overloaded"
	}
	g.turnShapes(&t)
	t.Cancel = g.cancelPlan(t.Batches)
	for _, b := range t.Batches {
		for _, tool := range b.Tools {
			// Under a contract an early result's id is not reused: a cancel
			// may cut its start off, and a later call would take the result.
			if len(g.opts.Contract) == 0 || !tool.ResultFirst {
				g.pastIDs = append(g.pastIDs, tool.ID)
			}
		}
	}
	return t
}

// toolNames are the names calls draw from; the last one is a meta tool,
// left out when meta tools are off (plainToolNames).
var (
	toolNames      = []string{"grep", "read", "bash", "glob", "edit_file", "web_fetch", "todowrite"}
	plainToolNames = toolNames[:len(toolNames)-1]
)

// newID returns a fresh tool id, or, under ReusedIDTurns, sometimes one
// from an earlier turn.
func (g *gen) newID() string {
	if g.on[fault.ReusedIDTurns] && len(g.pastIDs) > 0 && g.chance(6) {
		id := g.pastIDs[g.rng.IntN(len(g.pastIDs))]
		// Under unique-ids a batch never holds an id twice.
		if !g.opts.Contract.Has(contract.UniqueIDs) || !g.inBatch[id] {
			g.injected[fault.ReusedIDTurns]++
			g.inBatch[id] = true
			return id
		}
	}
	g.ids++
	id := "call_" + strconv.Itoa(g.ids)
	g.inBatch[id] = true
	return id
}

func (g *gen) batch(turn, b int) batchPlan {
	bt := batchPlan{}
	clear(g.inBatch)
	if g.feat.batchIDs {
		bt.ID = "msg_" + strconv.Itoa(turn+1) + "_" + strconv.Itoa(b+1)
	}
	n := 1 + g.rng.IntN(g.opts.Tools)
	bt.Tools = make([]toolPlan, 0, n)
	for i := range n {
		bt.Tools = append(bt.Tools, g.tool(i, 0))
	}
	g.batchFaults(&bt)
	g.batchShapes(&bt)
	g.answerWithGranted(&bt)
	return bt
}

// tool plans one call; top says whether it may have children.
func (g *gen) tool(i, depth int) toolPlan {
	top := depth == 0
	name := g.names[g.rng.IntN(len(g.names))]
	t := toolPlan{ID: g.newID(), Name: name, Duration: 50 + 120*int64(i), Progress: g.rng.IntN(3)}
	if !g.feat.progress {
		t.Progress = 0
	}
	if g.on[fault.Order] {
		t.Duration = 20 + g.rng.Int64N(2000)
	}
	t.Args = g.toolArgs()
	if g.chance(6) {
		t.Outcome = outcomeFailed
	}
	if g.feat.permissions && g.chance(5) {
		t.Permission = permission(1 + g.rng.IntN(3))
		// A request left pending holds what follows it (mayHold).
		if t.Permission == permissionPending && !g.mayHold() {
			t.Permission = permissionGranted
		}
	}
	if g.feat.delegation && top && g.chance(8) {
		t.Delegation, t.Progress = true, 1+g.rng.IntN(3)
	}
	if g.feat.children && (top && g.chance(7) || depth == 1 && g.shapeOn(ShapeNested) && g.chance(4)) {
		for j := range 1 + g.rng.IntN(2) {
			t.Children = append(t.Children, g.tool(j, depth+1))
		}
	}
	t.Quiet = t.Progress > 0 && g.chance(4)
	g.toolFaults(&t)
	if t.Permission == permissionDenied && !g.shapeOn(ShapeProgressAfterDenial) {
		t.ProgressAfter = false
	}
	g.toolShapes(&t, top)
	return t
}

// toolArgs returns {"path":"src/file_N.go","pattern":"TODO"} for the
// latest id N.
func (g *gen) toolArgs() json.RawMessage {
	var args json.RawMessage
	g.args, args = fileArgs(g.args, g.ids)
	return args
}

// fileArgs returns {"path":"src/file_N.go","pattern":"TODO"}, the bytes
// json.Marshal gives for that map, carved from buf (one allocation every
// few dozen calls, not one json.Marshal a call), and buf for the next.
func fileArgs(buf []byte, n int) ([]byte, json.RawMessage) {
	if cap(buf)-len(buf) < 64 {
		buf = make([]byte, 0, 2048)
	}
	start := len(buf)
	buf = append(buf, `{"path":"src/file_`...)
	buf = strconv.AppendInt(buf, int64(n), 10)
	buf = append(buf, `.go","pattern":"TODO"}`...)
	return buf, json.RawMessage(buf[start:len(buf):len(buf)])
}

// answerWithGranted, under contract.ApprovedNext, answers every request
// of a batch that has a granted call: the approved call runs only once
// each of them is answered, so one left pending would hold it for good.
func (g *gen) answerWithGranted(b *batchPlan) {
	if !g.opts.Contract.Has(contract.ApprovedNext) || !slices.ContainsFunc(b.Tools, func(t toolPlan) bool { return t.Permission == permissionGranted }) {
		return
	}
	for i := range b.Tools {
		if t := &b.Tools[i]; t.Permission == permissionPending {
			t.Permission, t.ResultPending = permissionGranted, false
		}
	}
}

// mayHold reports whether a call may stay live to its turn's end (no
// result, or an approval never answered): not under response-first (the
// closing text would come while it runs), nor under steps-wait but in the
// turn's last batch (the next one would start while it runs).
func (g *gen) mayHold() bool {
	c := g.opts.Contract
	return !c.Has(contract.ResponseFirst) && (g.last || !c.Has(contract.StepsWait))
}

// plainReused keeps, under a contract, the calls of a batch that share an
// id plain: no approval, no second or late result, no progress after it.
// Which of them such an event is for is a guess, and the contract's judge
// may read it otherwise than the fault meant.
func (g *gen) plainReused(b *batchPlan) {
	if len(g.opts.Contract) == 0 {
		return
	}
	n := map[string]int{}
	for _, t := range b.Tools {
		n[t.ID]++
	}
	for i := range b.Tools {
		if t := &b.Tools[i]; n[t.ID] > 1 {
			t.Permission, t.DuplicateResult, t.ProgressAfter, t.LateResult, t.ResultPending = permissionNone, false, false, false, false
		}
	}
}

// reusedUnderContract reports whether a contract is declared and id was
// used by an earlier call, or is a tool name (id-is-name: a later call may
// take it).
func (g *gen) reusedUnderContract(id string) bool {
	return len(g.opts.Contract) > 0 && (g.planned[id] || slices.Contains(g.pastIDs, id) || slices.Contains(toolNames, id))
}

// toolFaults switches the per-tool faults on at random.
func (g *gen) toolFaults(t *toolPlan) {
	if g.on[fault.IDIsName] && g.chance(8) {
		t.ID = t.Name
		g.injected[fault.IDIsName]++
	}
	if g.on[fault.MissingResult] && g.chance(8) && g.mayHold() {
		t.Outcome = outcomeMissing
		g.injected[fault.MissingResult]++
	}
	if g.on[fault.DuplicateResult] && t.Outcome != outcomeMissing && g.chance(6) {
		t.DuplicateResult = true
	}
	if g.on[fault.ProgressAfterResult] && t.Outcome != outcomeMissing && g.chance(6) {
		t.ProgressAfter = true
	}
	if g.on[fault.ProgressBurst] && g.chance(8) {
		t.Burst = 20 + g.rng.IntN(40)
	}
	if g.on[fault.LateResult] && t.Permission == permissionDenied && g.chance(2) {
		t.LateResult = true
	}
	if g.on[fault.ResultBeforeStart] && len(t.Children) == 0 && t.Outcome != outcomeMissing && g.chance(8) && !g.reusedUnderContract(t.ID) {
		t.ResultFirst, t.Progress, t.Permission, t.Delegation, t.Burst = true, 0, permissionNone, false, 0
	}
}

// batchFaults applies the faults that concern a whole batch.
func (g *gen) batchFaults(b *batchPlan) {
	if g.on[fault.ReusedIDBatch] && len(b.Tools) > 1 && g.chance(3) {
		i := 1 + g.rng.IntN(len(b.Tools)-1)
		j := g.rng.IntN(i)
		// Under a contract, an early result never meets a reused id: the
		// reference pairs it with the earlier call, and the later one would
		// never end.
		if len(g.opts.Contract) == 0 || !b.Tools[i].ResultFirst && !b.Tools[j].ResultFirst {
			b.Tools[i].ID = b.Tools[j].ID
			g.injected[fault.ReusedIDBatch]++
		}
	}
	g.plainReused(b)
	if g.on[fault.SameName] && len(b.Tools) > 1 && g.chance(3) {
		name := b.Tools[0].Name
		for i := range b.Tools {
			b.Tools[i].Name = name
		}
		g.injected[fault.SameName]++
	}
	if g.on[fault.UnknownID] && g.chance(3) {
		g.ids++
		b.Strays = append(b.Strays, strayPlan{Kind: g.strayKind(), ID: "ghost_" + strconv.Itoa(g.ids), At: g.rng.Float64()})
	}
	if g.on[fault.EmptyID] && g.chance(4) {
		b.Strays = append(b.Strays, strayPlan{Kind: g.strayKind(), At: g.rng.Float64()})
	}
}

// strayKind draws a stray's kind; a kind whose feature is off becomes a
// result.
func (g *gen) strayKind() event.Kind {
	switch k := []event.Kind{event.KindToolProgress, event.KindToolDone, event.KindPermission}[g.rng.IntN(3)]; {
	case k == event.KindToolProgress && !g.feat.progress, k == event.KindPermission && !g.opts.Features.Has(FeaturePermissions):
		return event.KindToolDone
	default:
		return k
	}
}

// cancelPlan decides whether and where the user cancels the turn.
func (g *gen) cancelPlan(batches []batchPlan) *cancelPlan {
	before := g.on[fault.CancelBeforeResult] && g.chance(3)
	if !before && !(g.on[fault.Cancel] && g.chance(3)) {
		return nil
	}
	c := &cancelPlan{Batch: g.rng.IntN(len(batches)), At: g.rng.Float64(), BeforeResultOf: -1}
	if before {
		tools := batches[c.Batch].Tools
		var cands []int
		for i, t := range tools {
			if t.Progress > 0 && len(t.Children) == 0 && t.Outcome != outcomeMissing && !t.ResultFirst && t.Permission != permissionDenied && t.Permission != permissionPending {
				cands = append(cands, i)
			}
		}
		if len(cands) > 0 {
			c.BeforeResultOf = cands[g.rng.IntN(len(cands))]
		}
	}
	if g.on[fault.LateResult] && g.chance(2) {
		c.Late = true
		c.AfterTurnEnd = g.chance(2)
	}
	c.LateProgress = g.on[fault.ProgressAfterResult] && g.shapeOn(ShapeProgressAfterInterrupt) && g.chance(2)
	c.InText = !before && g.feat.text && g.shapeOn(ShapeCancelInText) && g.chance(4)
	return c
}
