package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// envelope is a JSON-RPC message before its params are decoded.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// rpcError is a JSON-RPC error object.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// pendKey identifies a request: its sender and its id (as compact JSON).
type pendKey struct {
	from byte
	id   string
}

// request is a request waiting for its response.
type request struct {
	method  string
	turn    int                                                       // session/prompt: the assistant turn it opened
	toolID  string                                                    // session/request_permission: the tool call
	options map[acpsdk.PermissionOptionId]acpsdk.PermissionOptionKind // session/request_permission
}

// tool is what the importer remembers of a started tool call.
type tool struct {
	turn     int    // the assistant turn it was announced in
	terminal bool   // a result, denial, cancel or turn end was emitted
	shown    string // the output text given so far through progress deltas
	name     string // the name the call shows (tool_start, then tool_update)
	args     string // its args, compact
}

// state maps one source file.
type state struct {
	b      *importer.Builder
	lineNo int // the line being mapped
	err    error

	meta     map[string]any
	ignored  map[string]int
	sessions []string

	clientDir byte // the marker (dirIn/dirOut) that stands for the client, once known
	pending   map[pendKey]*request

	turnOpen      bool     // an assistant turn is open
	turnImplicit  bool     // it was opened by agent output, not by a prompt
	turnCancelled bool     // a cancel event was emitted in it
	turn          int      // assistant turns so far
	runK          int      // tool runs in this turn
	run           []string // ids of the current run
	runBroken     bool     // an item was shown since the run's last tool_start

	tools map[string]*tool

	members []jsonscan.Member // scratch space of the fast decoders

	userText  strings.Builder // user_message_chunk text not yet emitted
	userT     int64
	userChunk bool
}

// newState starts an import.
func newState(opts importer.Options) *state {
	return &state{
		b:       importer.NewBuilder("acp", opts),
		meta:    map[string]any{},
		ignored: map[string]int{},
		pending: map[pendKey]*request{},
		tools:   map[string]*tool{},
	}
}

// problem records a problem on the current line; under Strict the error
// stops the import.
func (s *state) problem(format string, args ...any) {
	if err := s.b.Problem(s.lineNo, fmt.Sprintf(format, args...)); err != nil && s.err == nil {
		s.err = err
	}
}

// ignore counts a message kind that maps to nothing.
func (s *state) ignore(what string) { s.ignored[what]++ }

// emit appends an event at trace time t.
func (s *state) emit(t int64, ev event.Event) { s.b.Emit(t, ev) }

// decode decodes params into v with the SDK's types; a failure is a
// problem naming the method.
func (s *state) decode(method string, params json.RawMessage, v any) bool {
	if !present(params) {
		s.problem("%s without params", method)
		return false
	}
	if err := json.Unmarshal(params, v); err != nil {
		s.problem("%s: bad params: %v", method, err)
		return false
	}
	return true
}

// finish ends the file: pending user text is emitted and the header meta
// written. Open turns stay open: the trace ends where the log does.
func (s *state) finish() {
	if s.err != nil {
		return
	}
	s.flushUser()
	if len(s.sessions) > 0 {
		s.meta["sessionId"] = s.sessions[0]
	}
	if len(s.sessions) > 1 {
		s.meta["sessions"] = s.sessions
	}
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	s.b.NoteClock()
}

// field builds an Extra member.
func field(key string, v any) event.Field {
	raw, err := json.Marshal(v)
	if err != nil {
		raw = []byte("null")
	}
	return event.Field{Key: key, Value: raw}
}
