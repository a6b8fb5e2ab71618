package codexrollout

import (
	"bytes"
	"fmt"
	"io"
	"regexp"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// Importer imports the codex-rollout format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "codex-rollout" }

// Source is the header's source member for traces from Codex.
const Source = "codex"

// lineShape is the start of every rollout line: Codex writes the members
// timestamp, type and payload in that order (Codex 0.169.0 puts an
// "ordinal" between timestamp and type, and writes world_state and
// token_usage_record lines too).
var lineShape = regexp.MustCompile(`^\{\s*"timestamp"\s*:\s*"[^"]*"\s*,(\s*"ordinal"\s*:\s*\d+\s*,)?\s*"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context|compacted|world_state|token_usage_record)"\s*,\s*"payload"\s*:`)

// Detect implements importer.Importer: the first non-blank line starts like
// a rollout line, {"timestamp":"…","type":"session_meta|response_item|
// event_msg|turn_context|compacted","payload":…}. Only the start of the line
// is looked at, so a first line longer than the head (a session_meta
// carrying whole instructions) is still recognised.
func (Importer) Detect(head []byte) bool {
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte{'\n'})
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return lineShape.Match(line)
		}
		head = rest
	}
	return false
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	s := &state{
		b:       importer.NewBuilder(Source, opts),
		ignored: map[string]int{},
		meta:    map[string]any{"format": "codex-rollout"},
		open:    map[string]bool{},

		execTimes: map[string]int64{},
		mcpFailed: map[string]bool{},
	}
	err := importer.EachLine(r, s.line, func(n int) error {
		return s.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
	})
	if err != nil {
		return nil, err
	}
	s.finish()
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	s.b.NoteClock()
	return s.b.Result(), nil
}

// state is one import in progress.
type state struct {
	members []jsonscan.Member // scratch space of the fast decoder
	payload payload           // the fast decoder's payload of the line being mapped
	b       *importer.Builder
	meta    map[string]any
	ignored map[string]int

	// the line being mapped
	n  int
	ts time.Time
	ok bool // ts is usable

	asstOpen  bool // a turn_start{assistant} was emitted and not yet ended
	cancelled bool // the open assistant turn was aborted (turn_aborted)
	lifecycle bool // the rollout records task_started / task_complete
	srcTurn   bool // between task_started and task_complete / turn_aborted

	resp   int  // model responses seen: the batch key is resp-<resp>
	inResp bool // the current model response is still open

	genID int // generated ids handed out

	open  map[string]bool // calls started and not yet answered
	abort *abort          // a turn_aborted whose cancel is not yet placed

	execTimes map[string]int64 // call id → exec_command_end's duration, ms
	mcpFailed map[string]bool  // MCP calls an item_completed says failed, not yet answered
}

// ignore counts a record kind that maps to nothing.
func (s *state) ignore(what string) { s.ignored[what]++ }

// emit appends an event at the line's time; after a turn_aborted it is
// held until the cancel's place is known (see abort).
func (s *state) emit(ev event.Event) {
	t := s.b.Clock(s.ts, s.ok)
	if s.abort != nil {
		s.abort.hold(s, t, ev)
		return
	}
	s.b.Emit(t, ev)
}
