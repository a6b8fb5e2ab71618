package codexexec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// Importer imports the codex-exec-json format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "codex-exec-json" }

// Source is the header's source member for traces from Codex.
const Source = "codex"

// execTypes are the top-level event types of `codex exec --json`.
var execTypes = map[string]bool{
	"thread.started": true, "turn.started": true, "turn.completed": true, "turn.failed": true,
	"item.started": true, "item.updated": true, "item.completed": true, "item.plan.delta": true,
	"request_user_input": true, "error": true,
}

// Detect implements importer.Importer: the complete lines of the head (up
// to 32) are JSON objects whose "type" is a codex exec event type, and at
// least one of them is a thread.*, turn.* or item.* event (a lone
// {"type":"error"} is too common a shape to claim). Types under those
// three prefixes are accepted even when unknown, so that a newer stream is
// still recognised (its unknown lines are then reported as problems).
func (Importer) Detect(head []byte) bool {
	dotted := false
	seen := 0
	for len(head) > 0 && seen < 32 {
		line, rest, complete := bytes.Cut(head, []byte{'\n'})
		head = rest
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !complete {
			// The head may end inside a line: judge its start only.
			if seen == 0 {
				return bytes.HasPrefix(line, []byte(`{"type":"thread.`)) ||
					bytes.HasPrefix(line, []byte(`{"type":"turn.`)) ||
					bytes.HasPrefix(line, []byte(`{"type":"item.`))
			}
			break
		}
		var probe struct {
			Type string `json:"type"`
		}
		if line[0] != '{' || json.Unmarshal(line, &probe) != nil {
			return false
		}
		lifecycle := strings.HasPrefix(probe.Type, "thread.") || strings.HasPrefix(probe.Type, "turn.") ||
			strings.HasPrefix(probe.Type, "item.")
		if !lifecycle && !execTypes[probe.Type] {
			return false
		}
		dotted = dotted || lifecycle
		seen++
	}
	return dotted
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	s := &state{
		b:       importer.NewBuilder(Source, opts),
		ignored: map[string]int{},
		meta:    map[string]any{"format": "codex-exec-json"},
		items:   map[string]*itemState{},
	}
	err := importer.EachLine(r, s.line, func(n int) error {
		return s.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
	})
	if err != nil {
		return nil, err
	}
	if len(s.threads) > 0 {
		s.meta["thread_id"] = s.threads[0]
		if len(s.threads) > 1 {
			s.meta["thread_ids"] = s.threads
		}
	}
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	s.b.NoteClock()
	return s.b.Result(), nil
}

// state is one import in progress.
type state struct {
	members []jsonscan.Member // scratch space of the fast decoders
	b       *importer.Builder
	meta    map[string]any
	ignored map[string]int
	threads []string
	n       int

	turnOpen bool
	items    map[string]*itemState // by item id
}

// itemState is what was emitted for one item id so far.
type itemState struct {
	kind    string // item type
	started bool   // a tool_start was emitted
	done    bool   // the item completed
	output  string // aggregated_output already emitted as progress
	text    string // text already emitted (agent_message, reasoning, plan)
}

// emit appends an event; the stream has no timestamps, so the clock is
// synthetic.
func (s *state) emit(ev event.Event) {
	s.b.Emit(s.b.Clock(time.Time{}, false), ev)
}

// ignore counts a record kind that maps to nothing.
func (s *state) ignore(what string) { s.ignored[what]++ }
