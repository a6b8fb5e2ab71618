// Package chatui is a small live transcript engine, written the way an
// agent UI team would write its own: its own rows and calls, its own state
// names, and no dependency on toolsim. Package adapter connects it to
// toolsim's harness.
//
// It shows every call on its own row (no groups), a sub-agent's calls
// under their parent, text and thinking as they stream, user messages,
// error and interruption notes, and a "Turn complete" row after each
// assistant turn.
package chatui

// State is where a call is.
type State string

// The states of a call. Only Running and Asking are live.
const (
	Running   State = "running"
	Asking    State = "asking" // waiting for the user's permission
	Succeeded State = "succeeded"
	Failed    State = "failed"
	Stopped   State = "stopped" // cancelled, or never answered
	Refused   State = "refused" // permission denied
)

// Live reports whether a call in state s may still change.
func (s State) Live() bool { return s == Running || s == Asking }

// RowKind is what a row shows.
type RowKind string

// The kinds of row.
const (
	RowCall     RowKind = "call"
	RowUser     RowKind = "user"
	RowSay      RowKind = "say"
	RowThink    RowKind = "think"
	RowError    RowKind = "error"
	RowStopped  RowKind = "stopped"
	RowTurnDone RowKind = "turn_done"
)

// Row is one line of the transcript.
type Row struct {
	Kind RowKind
	Call *Call  // RowCall
	Text string // everything else
	Cut  bool   // RowSay: the user cancelled while it streamed
}

// Call is one tool call.
type Call struct {
	ID, Name string
	State    State
	Began    int64 // clock at start
	Ended    int64 // clock when it stopped being live
	Took     int64 // how long it ran: the result's own figure, else Ended-Began
	Problem  string
	Subcalls []*Row // calls made under this one (a sub-agent's)
	answered bool   // ended by a result (not a cancel or denial)
}

// Transcript is the engine. The zero value is not usable; call New.
type Transcript struct {
	rows    []*Row
	calls   map[string]*byID
	early   map[string][]Outcome // results that came before their call
	live    []*Call              // in start order
	clock   int64
	user    bool // the current turn is the user's
	stopped bool // the current turn was cancelled
	open    *Row // the say or think row still streaming
}

type byID struct {
	live []*Call // oldest first
	last *Call
}

// Outcome is a call's result.
type Outcome struct {
	OK      bool
	Problem string
	Took    *int64 // the source's duration, when it reports one
}

// New returns an empty transcript.
func New() *Transcript {
	return &Transcript{calls: map[string]*byID{}, early: map[string][]Outcome{}}
}

// Rows returns the top-level rows. They belong to the transcript.
func (t *Transcript) Rows() []*Row { return t.rows }

// Clock returns the time of the last update.
func (t *Transcript) Clock() int64 { return t.clock }

// Tick moves the clock: every update arrives with its time.
func (t *Transcript) Tick(at int64) { t.clock = at }

func (t *Transcript) add(r *Row) *Row {
	t.rows = append(t.rows, r)
	return r
}

// BeginTurn starts a turn; user is true for the user's own turn.
func (t *Transcript) BeginTurn(user bool) {
	t.user, t.stopped, t.open = user, false, nil
}

// EndTurn ends a turn: calls still live are stopped, and an assistant
// turn that was not cancelled gets its "Turn complete" row.
func (t *Transcript) EndTurn() {
	t.open = nil
	clear(t.early)
	if !plantedBug {
		t.stopAll()
	}
	if !t.user && !t.stopped {
		t.add(&Row{Kind: RowTurnDone, Text: "Turn complete"})
	}
	t.user, t.stopped = false, false
}

// UserSaid shows a user message.
func (t *Transcript) UserSaid(text string) {
	t.open = nil
	t.add(&Row{Kind: RowUser, Text: text})
}

// Stream appends streamed text (or thinking) to the row still growing, or
// starts a new one when something else was shown in between.
func (t *Transcript) Stream(kind RowKind, text string) {
	if o := t.open; o != nil && o.Kind == kind && len(t.rows) > 0 && t.rows[len(t.rows)-1] == o {
		o.Text += text
		return
	}
	t.open = t.add(&Row{Kind: kind, Text: text})
}

// StreamFailed shows an error note.
func (t *Transcript) StreamFailed(msg string) {
	t.open = nil
	t.add(&Row{Kind: RowError, Text: msg})
}

// Cancel stops every live call and notes the interruption.
func (t *Transcript) Cancel(reason string) {
	if o := t.open; o != nil && o.Kind == RowSay && t.rows[len(t.rows)-1] == o {
		o.Cut = true
	}
	t.open = nil
	t.stopAll()
	t.add(&Row{Kind: RowStopped, Text: reason})
	t.stopped = true
}

// Close ends the stream: results that never found their call are
// dropped, and calls still live are stopped.
func (t *Transcript) Close() {
	t.open = nil
	clear(t.early)
	t.stopAll()
}

// stopAll stops every live call, in start order.
func (t *Transcript) stopAll() {
	for _, c := range t.live {
		if c.State.Live() {
			t.end(c, Stopped, t.clock)
		}
	}
	t.live = t.live[:0]
}
