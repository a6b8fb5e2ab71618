package engineproto

import "encoding/json"

// Version is the protocol version exchanged at init.
const Version = "toolsim-engine/1"

// AnsweredError is what the client puts before the message of an error
// the engine answered with, in the error it returns: what follows it is
// the engine's own words (harness signatures keep those).
const AnsweredError = "it answered error: "

// Message types toolsim sends.
const (
	TypeInit        = "init"        // start: protocol version and options; reply init_ok
	TypeEvent       = "event"       // apply one canonical event; reply timeline
	TypeBatch       = "batch"       // apply events in order; one timeline reply per event (+1 with finish)
	TypeFinish      = "finish"      // apply the end-of-stream rule; reply timeline
	TypeReset       = "reset"       // forget everything, start a new scenario; reply the empty timeline
	TypeRender      = "render"      // render the current timeline at a width; reply rendered
	TypeReconstruct = "reconstruct" // rebuild a timeline from a persisted log; reply timeline
	TypeSnapshot    = "snapshot"    // the whole current timeline, changing nothing; reply timeline (whole)
	TypeCrash       = "crash"       // kill the engine's process mid-turn and resume it; reply timeline (whole)
)

// Reply types an engine sends.
const (
	TypeInitOK   = "init_ok"
	TypeTimeline = "timeline"
	TypeRendered = "rendered"
	TypeError    = "error"
)

// Capabilities an engine may declare in init_ok. "timeline" is required.
const (
	CapTimeline    = "timeline"
	CapRender      = "render"
	CapReconstruct = "reconstruct"
	CapBatch       = "batch"
	CapDelta       = "delta"    // timeline replies may carry only what changed (docs/protocol.md)
	CapSnapshot    = "snapshot" // answers snapshot with the whole current timeline
	// CapScreen says the timelines are what a screen shows, read from a
	// rendered page (toolsim-browser): toolsim adds its screen oracles.
	CapScreen = "screen"
	// CapToolRows says the timelines hold tool rows only: the screen
	// reader of a real agent app (toolsim-agent) reads the calls, not the
	// text, notices and separators around them, and the harness's model
	// compares the calls alone (harness.Options.ToolRows).
	CapToolRows = "tool-rows"
	// CapCrash says the engine answers crash: its process (a real agent
	// app) is killed where it stands and started again with its resume
	// command, and the reply is the timeline the resumed engine shows
	// (the crash fault, docs/protocol.md).
	CapCrash = "crash"
)

// Timeline fields an engine may declare it fills. Tool ids, names,
// statuses, item kinds and grouping are always required; oracles and
// --diff compare the optional fields only when declared.
const (
	FieldOutput      = "output"
	FieldUpdateSeq   = "update_seq"
	FieldError       = "error"
	FieldDiagnostics = "diagnostics"
	FieldDuration    = "duration_ms"
	FieldSummary     = "summary"
)

// AllFields lists the optional timeline fields.
var AllFields = []string{FieldOutput, FieldUpdateSeq, FieldError, FieldDiagnostics, FieldDuration, FieldSummary}

// Message is one line from toolsim to the engine.
type Message struct {
	Type     string            `json:"type"`
	ID       int64             `json:"id"`
	Protocol string            `json:"protocol,omitempty"` // init
	Options  *InitOptions      `json:"options,omitempty"`  // init
	Event    json.RawMessage   `json:"event,omitempty"`    // event: one canonical event object
	Events   []json.RawMessage `json:"events,omitempty"`   // batch
	Finish   bool              `json:"finish,omitempty"`   // batch: apply the end-of-stream rule after the events
	Width    int               `json:"width,omitempty"`    // render
	Log      string            `json:"log,omitempty"`      // reconstruct: the persisted log, whole
}

// InitOptions are the engine options sent at init.
type InitOptions struct {
	Width     int      `json:"width"`
	MetaTools []string `json:"meta_tools"`
	Features  []string `json:"features,omitempty"` // what toolsim will generate (sim.Feature names); absent = all
}

// Reply is one line from the engine to toolsim.
type Reply struct {
	Type         string          `json:"type"`
	ID           int64           `json:"id"`
	Index        int             `json:"index,omitempty"`        // batch: which event the timeline follows (0-based)
	Protocol     string          `json:"protocol,omitempty"`     // init_ok
	Capabilities []string        `json:"capabilities,omitempty"` // init_ok
	Fields       []string        `json:"fields,omitempty"`       // init_ok
	Features     []string        `json:"features,omitempty"`     // init_ok: features supported; absent = all
	Grouping     *bool           `json:"grouping,omitempty"`     // init_ok: false = no tool_group items; absent = true
	Contract     []string        `json:"contract,omitempty"`     // init_ok: what the engine's real upstream guarantees (contract.Guarantee names, or "executor")
	Documented   []string        `json:"documented,omitempty"`   // init_ok: the library's documented behaviours (contract.Behaviour names)
	ByDesign     []string        `json:"by_design,omitempty"`    // init_ok: behaviours the library means but does not document (contract.Behaviour names)
	Timeline     json.RawMessage `json:"timeline,omitempty"`     // timeline: the toolsim-timeline/1 object
	Delta        json.RawMessage `json:"delta,omitempty"`        // timeline: what changed since the previous reply (delta capability)
	Text         string          `json:"text,omitempty"`         // rendered
	Message      string          `json:"message,omitempty"`      // error
}
