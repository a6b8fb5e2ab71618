package sim

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/toolsim/toolsim/event"
)

// SyntheticOptions shape a synthetic trace. Zero fields take the defaults noted.
type SyntheticOptions struct {
	Events   int // stop after about this many events (default 1000)
	MaxBatch int // largest batch of parallel tools (default 5)
	Progress int // most progress updates per tool (default 3)
	// CancelEvery makes about one turn in CancelEvery end in a cancel
	// (0: never).
	CancelEvery int
	// BatchIDs gives each batch's tool_start events a batch id, as sources
	// with a model message id do.
	BatchIDs bool
}

func (o *SyntheticOptions) defaults() {
	if o.Events <= 0 {
		o.Events = 1000
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 5
	}
	if o.Progress < 0 {
		o.Progress = 0
	} else if o.Progress == 0 {
		o.Progress = 3
	}
}

// synth is the state of one generation run.
type synth struct {
	rng  *rand.Rand
	opts SyntheticOptions
	evs  []event.Event
	now  int64
	ids  int
	args []byte // backing store of the calls' args
}

// Synthetic returns a well-formed trace of whole assistant turns: text,
// batches of parallel tools whose progress and results arrive in a random
// order, and occasional cancels. The same seed and options always give the
// same events.
func Synthetic(seed uint64, opts SyntheticOptions) []event.Event {
	opts.defaults()
	g := &synth{rng: rand.New(rand.NewPCG(seed, 0x700751)), opts: opts}
	for len(g.evs) < opts.Events {
		g.turn()
	}
	return g.evs
}

func (g *synth) emit(ev event.Event) {
	g.now += int64(g.rng.IntN(40))
	ev.Seq, ev.T = int64(len(g.evs)+1), g.now
	g.evs = append(g.evs, ev)
}

var synthNames = []string{"grep", "read", "bash", "glob", "edit_file", "web_fetch"}

func (g *synth) turn() {
	g.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	g.emit(event.Event{Kind: event.KindUser, Text: "please look at the failing test"})
	g.emit(event.Event{Kind: event.KindTurnEnd})
	g.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
	if g.rng.IntN(2) == 0 {
		g.emit(event.Event{Kind: event.KindThinking, Text: "The test fails on "})
		g.emit(event.Event{Kind: event.KindThinking, Text: "a nil map."})
	}
	g.emit(event.Event{Kind: event.KindText, Text: "Let me check "})
	g.emit(event.Event{Kind: event.KindText, Text: "these files."})
	cancel := g.opts.CancelEvery > 0 && g.rng.IntN(g.opts.CancelEvery) == 0
	for range 1 + g.rng.IntN(3) {
		if g.batch(cancel) {
			g.emit(event.Event{Kind: event.KindCancel, Reason: "user pressed Esc"})
			g.emit(event.Event{Kind: event.KindTurnEnd})
			return
		}
		g.emit(event.Event{Kind: event.KindText, Text: "Next step."})
	}
	g.emit(event.Event{Kind: event.KindTurnEnd})
}

// batch starts 1..MaxBatch tools back to back, then interleaves their
// progress and results at random. With cancel it stops part-way and
// reports true.
func (g *synth) batch(cancel bool) bool {
	n := 1 + g.rng.IntN(g.opts.MaxBatch)
	pending := make([]int, n) // events left per tool: progress..., then the result
	ids := make([]string, n)
	batch := ""
	if g.opts.BatchIDs {
		batch = fmt.Sprintf("msg_%d", g.ids+1)
	}
	for i := range n {
		g.ids++
		ids[i] = fmt.Sprintf("call_%d", g.ids)
		name := synthNames[g.rng.IntN(len(synthNames))]
		var args json.RawMessage
		g.args, args = fileArgs(g.args, g.ids)
		g.emit(event.Event{Kind: event.KindToolStart, ID: ids[i], Name: name, Args: args, Batch: batch})
		pending[i] = 1 + g.rng.IntN(g.opts.Progress+1)
	}
	g.extras(ids, pending)
	left := 0
	for _, p := range pending {
		left += p
	}
	stopAt := -1
	if cancel && left > 0 {
		stopAt = g.rng.IntN(left)
	}
	for step := 0; left > 0; step++ {
		if step == stopAt {
			return true
		}
		g.next(ids, pending)
		left--
	}
	return false
}

// extras gives some tools of a batch a permission prompt (granted, or
// denied: a denied tool gets no result) or a sub-agent child that runs to
// completion under it before the batch goes on.
func (g *synth) extras(ids []string, pending []int) {
	for i, id := range ids {
		switch g.rng.IntN(12) {
		case 0, 1:
			g.emit(event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionAsked})
			g.emit(event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionGranted})
		case 2:
			g.emit(event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionAsked})
			g.emit(event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionDenied})
			pending[i] = 0
		case 3, 4:
			g.child(id)
		}
	}
}

// child runs one sub-agent tool under parent.
func (g *synth) child(parent string) {
	g.ids++
	id := fmt.Sprintf("call_%d", g.ids)
	g.emit(event.Event{Kind: event.KindToolStart, ID: id, Name: "read", Parent: parent, Args: json.RawMessage(`{"path":"go.mod"}`)})
	g.emit(event.Event{Kind: event.KindToolProgress, ID: id, Output: "module x\n"})
	g.emit(event.Event{Kind: event.KindToolDone, ID: id, OK: true})
}

// next emits the next event of a random tool that still has some.
func (g *synth) next(ids []string, pending []int) {
	i := g.rng.IntN(len(ids))
	for pending[i] == 0 {
		i = (i + 1) % len(ids)
	}
	pending[i]--
	if pending[i] > 0 {
		g.emit(event.Event{Kind: event.KindToolProgress, ID: ids[i], Output: "scanning...\n"})
		return
	}
	ok := g.rng.IntN(8) != 0
	ev := event.Event{Kind: event.KindToolDone, ID: ids[i], OK: ok, Output: "3 matches\n"}
	if !ok {
		ev.Error = "exit status 1"
	}
	g.emit(ev)
}
