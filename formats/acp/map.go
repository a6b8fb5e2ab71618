package acp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Senders of a JSON-RPC message.
const (
	fromUnknown byte = 0
	fromClient  byte = 'c'
	fromAgent   byte = 'a'
)

// agentMethods are the methods an agent implements: the client sends them.
var agentMethods = set(
	acpsdk.AgentMethodAuthenticate, acpsdk.AgentMethodDocumentDidChange,
	acpsdk.AgentMethodDocumentDidClose, acpsdk.AgentMethodDocumentDidFocus,
	acpsdk.AgentMethodDocumentDidOpen, acpsdk.AgentMethodDocumentDidSave,
	acpsdk.AgentMethodInitialize, acpsdk.AgentMethodLogout, acpsdk.AgentMethodMcpMessage,
	acpsdk.AgentMethodNesAccept, acpsdk.AgentMethodNesClose, acpsdk.AgentMethodNesReject,
	acpsdk.AgentMethodNesStart, acpsdk.AgentMethodNesSuggest,
	acpsdk.AgentMethodProvidersDisable, acpsdk.AgentMethodProvidersList, acpsdk.AgentMethodProvidersSet,
	acpsdk.AgentMethodSessionCancel, acpsdk.AgentMethodSessionClose, acpsdk.AgentMethodSessionFork,
	acpsdk.AgentMethodSessionList, acpsdk.AgentMethodSessionLoad, acpsdk.AgentMethodSessionNew,
	acpsdk.AgentMethodSessionPrompt, acpsdk.AgentMethodSessionResume,
	acpsdk.AgentMethodSessionSetConfigOption, acpsdk.AgentMethodSessionSetMode,
	acpsdk.AgentMethodSessionSetModel,
)

// clientMethods are the methods a client implements: the agent sends them.
var clientMethods = set(
	acpsdk.ClientMethodElicitationComplete, acpsdk.ClientMethodElicitationCreate,
	acpsdk.ClientMethodFsReadTextFile, acpsdk.ClientMethodFsWriteTextFile,
	acpsdk.ClientMethodMcpConnect, acpsdk.ClientMethodMcpDisconnect, acpsdk.ClientMethodMcpMessage,
	acpsdk.ClientMethodSessionRequestPermission, acpsdk.ClientMethodSessionUpdate,
	acpsdk.ClientMethodTerminalCreate, acpsdk.ClientMethodTerminalKill,
	acpsdk.ClientMethodTerminalOutput, acpsdk.ClientMethodTerminalRelease,
	acpsdk.ClientMethodTerminalWaitForExit,
)

// cancelRequest is the protocol-level request cancellation; either side
// may send it.
const cancelRequest = "$/cancel_request"

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// senderOf names who sends a method: the client, the agent, or unknown
// for methods both sides have (mcp/message, $/cancel_request) and
// extension methods ("_…").
func senderOf(method string) byte {
	a, c := agentMethods[method], clientMethods[method]
	switch {
	case a && !c:
		return fromClient
	case c && !a:
		return fromAgent
	}
	return fromUnknown
}

// knownMethod reports whether a method is part of ACP (or an extension
// method, which ACP reserves the "_" prefix for).
func knownMethod(method string) bool {
	return agentMethods[method] || clientMethods[method] || method == cancelRequest || strings.HasPrefix(method, "_")
}

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

	userText  strings.Builder // user_message_chunk text not yet emitted
	userT     int64
	userChunk bool
}

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

func (s *state) ignore(what string) { s.ignored[what]++ }

func (s *state) emit(t int64, ev event.Event) { s.b.Emit(t, ev) }

// line maps one source line.
func (s *state) line(n int, raw []byte) error {
	s.lineNo = n
	sl := splitLine(raw)
	switch sl.class {
	case lineBlank:
		return nil
	case lineOther:
		s.ignore("other log lines")
		return nil
	}
	t := s.b.Clock(sl.ts, sl.hasTS)
	where := ""
	if sl.marker != "" {
		where = " after " + sl.marker
	}
	if len(sl.json) == 0 || sl.json[0] != '{' {
		s.problem("transport line without a JSON-RPC message%s", where)
		return s.err
	}
	var env envelope
	if err := json.Unmarshal(sl.json, &env); err != nil {
		s.problem("malformed JSON%s: %v", where, err)
		return s.err
	}
	id := ""
	if present(env.ID) {
		id = compact(env.ID)
	}
	switch {
	case env.Method != "":
		s.message(t, sl.dir, id, &env)
	case id != "" && (env.Result != nil || env.Error != nil):
		s.response(t, sl.dir, id, &env)
	case env.Error != nil:
		s.flushUser()
		s.problem("error response without a request id: %s", compact(env.Error))
	default:
		s.problem("not a JSON-RPC request, notification or response")
	}
	return s.err
}

// message maps a request (id set) or a notification.
func (s *state) message(t int64, dir byte, id string, env *envelope) {
	method := env.Method
	if !knownMethod(method) {
		s.flushUser()
		s.problem("unknown method %q", method)
		return
	}
	from := senderOf(method)
	if from != fromUnknown && dir != dirNone && s.clientDir == dirNone {
		s.clientDir = dir
		if from == fromAgent {
			s.clientDir = other(dir)
		}
	}
	if from == fromUnknown {
		from = s.senderByDir(dir)
	}
	var req *request
	if id != "" {
		req = &request{method: method}
		s.pending[pendKey{from, id}] = req
	}
	if method != acpsdk.ClientMethodSessionUpdate {
		s.flushUser()
	}
	switch method {
	case acpsdk.ClientMethodSessionUpdate:
		s.update(t, env.Params)
	case acpsdk.AgentMethodSessionPrompt:
		s.prompt(t, env.Params, req)
	case acpsdk.ClientMethodSessionRequestPermission:
		s.askPermission(t, env.Params, req)
	case acpsdk.AgentMethodSessionCancel:
		s.cancel(t, env.Params)
	case acpsdk.AgentMethodInitialize:
		s.ignore(method)
		var p acpsdk.InitializeRequest
		if !s.decode(method, env.Params, &p) {
			return
		}
		s.meta["protocolVersion"] = int(p.ProtocolVersion)
		if p.ClientInfo != nil {
			s.meta["client"] = strings.TrimSpace(p.ClientInfo.Name + " " + p.ClientInfo.Version)
		}
	case acpsdk.AgentMethodSessionNew:
		s.ignore(method)
		var p acpsdk.NewSessionRequest
		if s.decode(method, env.Params, &p) && p.Cwd != "" {
			s.meta["cwd"] = p.Cwd
		}
	case acpsdk.AgentMethodSessionLoad:
		s.ignore(method)
		var p acpsdk.LoadSessionRequest
		if s.decode(method, env.Params, &p) {
			if p.Cwd != "" {
				s.meta["cwd"] = p.Cwd
			}
			s.session(string(p.SessionId))
		}
	default:
		s.ignore(method)
	}
}

// senderByDir names the sender of a message from its direction marker,
// once the marker's meaning is known.
func (s *state) senderByDir(dir byte) byte {
	switch {
	case dir == dirNone || s.clientDir == dirNone:
		return fromUnknown
	case dir == s.clientDir:
		return fromClient
	}
	return fromAgent
}

func other(dir byte) byte {
	if dir == dirIn {
		return dirOut
	}
	return dirIn
}

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

// session notes a session id for the header.
func (s *state) session(id string) {
	if id == "" {
		return
	}
	for _, have := range s.sessions {
		if have == id {
			return
		}
	}
	s.sessions = append(s.sessions, id)
}

// response maps the response to an earlier request.
func (s *state) response(t int64, dir byte, id string, env *envelope) {
	s.flushUser()
	key, req := s.findRequest(dir, id, env)
	if req == nil {
		s.problem("response to request id %s, which the log does not show", id)
		return
	}
	delete(s.pending, key)
	switch req.method {
	case acpsdk.AgentMethodSessionPrompt:
		s.promptDone(t, req, env)
	case acpsdk.ClientMethodSessionRequestPermission:
		s.permissionDone(t, req, env)
	default:
		if env.Error != nil {
			s.ignore(req.method + " error")
			return
		}
		s.ignore(req.method + " result")
		switch req.method {
		case acpsdk.AgentMethodInitialize:
			var r acpsdk.InitializeResponse
			if s.decode(req.method+" result", env.Result, &r) {
				s.meta["protocolVersion"] = int(r.ProtocolVersion)
				if r.AgentInfo != nil {
					s.meta["agent"] = strings.TrimSpace(r.AgentInfo.Name + " " + r.AgentInfo.Version)
				}
			}
		case acpsdk.AgentMethodSessionNew:
			var r acpsdk.NewSessionResponse
			if s.decode(req.method+" result", env.Result, &r) {
				s.session(string(r.SessionId))
			}
		case acpsdk.AgentMethodSessionLoad:
			// The history replay is over: close the turn it opened.
			if s.turnOpen && s.turnImplicit {
				s.endTurn(t)
			}
		}
	}
}

// findRequest finds the request a response answers. Ids of the two sides
// are separate spaces: with a direction marker whose meaning is known, the
// request came from the other side; otherwise the one pending request
// with that id, and between two, the one whose result shape fits.
func (s *state) findRequest(dir byte, id string, env *envelope) (pendKey, *request) {
	responder := s.senderByDir(dir)
	var keys []pendKey
	for _, from := range []byte{fromClient, fromAgent, fromUnknown} {
		if responder != fromUnknown && from == responder {
			continue
		}
		k := pendKey{from, id}
		if _, ok := s.pending[k]; ok {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return pendKey{}, nil
	}
	if len(keys) > 1 {
		want := ""
		switch {
		case bytes.Contains(env.Result, []byte(`"outcome"`)):
			want = acpsdk.ClientMethodSessionRequestPermission
		case bytes.Contains(env.Result, []byte(`"stopReason"`)):
			want = acpsdk.AgentMethodSessionPrompt
		}
		for _, k := range keys {
			if s.pending[k].method == want {
				return k, s.pending[k]
			}
		}
	}
	return keys[0], s.pending[keys[0]]
}

// --- turns -----------------------------------------------------------------

// prompt maps a session/prompt request: the user's turn, then the
// assistant's turn it starts.
func (s *state) prompt(t int64, params json.RawMessage, req *request) {
	var p acpsdk.PromptRequest
	if !s.decode(acpsdk.AgentMethodSessionPrompt, params, &p) {
		return
	}
	s.session(string(p.SessionId))
	var raw struct {
		Prompt []json.RawMessage `json:"prompt"`
	}
	_ = json.Unmarshal(params, &raw)
	var texts []string
	var attachments []json.RawMessage
	for i, block := range p.Prompt {
		if block.Text != nil {
			texts = append(texts, block.Text.Text)
			continue
		}
		if i < len(raw.Prompt) {
			attachments = append(attachments, json.RawMessage(compact(raw.Prompt[i])))
		}
	}
	if s.turnOpen {
		var extra []event.Field
		if !s.turnImplicit {
			extra = append(extra, field("unanswered", true))
		}
		s.endTurn(t, extra...)
	}
	s.emit(t, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	user := event.Event{Kind: event.KindUser, Text: strings.Join(texts, "\n")}
	if len(attachments) > 0 {
		user.Extra = append(user.Extra, field("attachments", attachments))
	}
	s.emit(t, user)
	s.emit(t, event.Event{Kind: event.KindTurnEnd})
	s.startTurn(t, false)
	if req != nil {
		req.turn = s.turn
	}
}

// startTurn opens an assistant turn; implicit turns hold agent output that
// no prompt in the log asked for (a session/load replay, a log that starts
// mid-turn).
func (s *state) startTurn(t int64, implicit bool) {
	s.turn++
	s.turnOpen, s.turnImplicit, s.turnCancelled = true, implicit, false
	s.runK, s.run, s.runBroken = 0, nil, false
	ev := event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant}
	if implicit {
		ev.Extra = append(ev.Extra, field("implicit", true))
	}
	s.emit(t, ev)
}

// ensureTurn opens an implicit assistant turn when none is open.
func (s *state) ensureTurn(t int64) {
	if !s.turnOpen {
		s.startTurn(t, true)
	}
}

// endTurn closes the open assistant turn. The engine resolves the tools
// still live; the importer notes them terminal.
func (s *state) endTurn(t int64, extra ...event.Field) {
	s.emit(t, event.Event{Kind: event.KindTurnEnd, Extra: extra})
	s.turnOpen, s.turnImplicit = false, false
	s.run, s.runBroken = nil, false
	s.settleTools()
}

func (s *state) settleTools() {
	for _, tl := range s.tools {
		tl.terminal = true
	}
}

// promptDone maps the response to a session/prompt: the stop reason ends
// the turn. "cancelled" without a session/cancel seen adds the cancel.
func (s *state) promptDone(t int64, req *request, env *envelope) {
	if !s.turnOpen || s.turnImplicit || req.turn != s.turn {
		s.problem("session/prompt response for a turn that is already over")
		return
	}
	if env.Error != nil {
		var e rpcError
		msg := compact(env.Error)
		if json.Unmarshal(env.Error, &e) == nil && e.Message != "" {
			msg = fmt.Sprintf("%s (code %d)", e.Message, e.Code)
		}
		s.emit(t, event.Event{Kind: event.KindError, Message: msg})
		s.endTurn(t, field("error", json.RawMessage(compact(env.Error))))
		return
	}
	var r acpsdk.PromptResponse
	if !s.decode("session/prompt result", env.Result, &r) {
		s.endTurn(t)
		return
	}
	if r.StopReason == acpsdk.StopReasonCancelled && !s.turnCancelled {
		s.emit(t, event.Event{Kind: event.KindCancel, Reason: "stopReason: cancelled"})
		s.turnCancelled = true
	}
	var extra []event.Field
	if r.StopReason != "" {
		extra = append(extra, field("stop_reason", string(r.StopReason)))
	}
	s.endTurn(t, extra...)
}

// cancel maps session/cancel.
func (s *state) cancel(t int64, params json.RawMessage) {
	var p acpsdk.CancelNotification
	if present(params) && s.decode(acpsdk.AgentMethodSessionCancel, params, &p) {
		s.session(string(p.SessionId))
	}
	s.emit(t, event.Event{Kind: event.KindCancel, Reason: "session/cancel"})
	s.turnCancelled = true
	s.settleTools()
	s.run = nil
}

// --- session/update ----------------------------------------------------------

// rawUpdate holds the members of a tool call that the SDK decodes into
// interface values: kept raw so that numbers and key order survive.
type rawUpdate struct {
	Update rawToolCall `json:"update"`
}

type rawToolCall struct {
	RawInput  json.RawMessage `json:"rawInput"`
	RawOutput json.RawMessage `json:"rawOutput"`
	Content   json.RawMessage `json:"content"`
	Locations json.RawMessage `json:"locations"`
}

// Kinds of session/update that the timeline has no place for.
var ignoredUpdates = set(
	"plan", "available_commands_update", "current_mode_update",
	"config_option_update", "session_info_update", "usage_update",
)

func (s *state) update(t int64, params json.RawMessage) {
	var n acpsdk.SessionNotification
	if !present(params) {
		s.flushUser()
		s.problem("session/update without params")
		return
	}
	if err := json.Unmarshal(params, &n); err != nil {
		s.flushUser()
		s.problem("session/update: bad params: %v", err)
		return
	}
	s.session(string(n.SessionId))
	u := &n.Update
	kind := updateKind(u)
	if kind != "user_message_chunk" {
		s.flushUser()
	}
	switch kind {
	case "user_message_chunk":
		text, _ := blockText(u.UserMessageChunk.Content)
		if !s.userChunk {
			s.userChunk, s.userT = true, t
		}
		s.userText.WriteString(text)
	case "agent_message_chunk":
		s.chunk(t, event.KindText, u.AgentMessageChunk.Content, kind)
	case "agent_thought_chunk":
		s.chunk(t, event.KindThinking, u.AgentThoughtChunk.Content, kind)
	case "tool_call":
		var raw rawUpdate
		_ = json.Unmarshal(params, &raw)
		c := u.ToolCall
		f := toolFields{
			id: string(c.ToolCallId), status: string(c.Status), title: c.Title, kind: string(c.Kind),
			locations: c.Locations, content: c.Content, raw: raw.Update,
		}
		f.hasStatus, f.hasTitle, f.hasKind = f.status != "", f.title != "", f.kind != ""
		if tl := s.tools[f.id]; tl != nil && tl.turn == s.turn && s.turnOpen {
			// The same id announced again in its turn: a patch (SPEC §7).
			s.patch(t, f, true)
			return
		}
		s.startTool(t, f, nil)
		f.hasTitle, f.hasKind, f.raw.RawInput, f.raw.Locations = false, false, nil, nil
		// What the announcement carries beyond the start: a status past
		// in_progress, content or output.
		if st := acpsdk.ToolCallStatus(f.status); (st != "" && st != acpsdk.ToolCallStatusPending && st != acpsdk.ToolCallStatusInProgress) ||
			present(f.raw.Content) || present(f.raw.RawOutput) {
			s.patch(t, f, false)
		}
	case "tool_call_update":
		var raw rawUpdate
		_ = json.Unmarshal(params, &raw)
		c := u.ToolCallUpdate
		f := toolFields{id: string(c.ToolCallId), locations: c.Locations, content: c.Content, raw: raw.Update}
		if c.Status != nil {
			f.status, f.hasStatus = string(*c.Status), true
		}
		if c.Title != nil {
			f.title, f.hasTitle = *c.Title, true
		}
		if c.Kind != nil {
			f.kind, f.hasKind = string(*c.Kind), true
		}
		s.patch(t, f, false)
	case "":
		s.problem("session/update without a sessionUpdate kind")
	default:
		if ignoredUpdates[kind] {
			s.ignore("session/update " + kind)
			return
		}
		s.problem("unknown session/update kind %q", kind)
	}
}

// updateKind is the sessionUpdate discriminator of a decoded update. The
// SDK falls back on matching members when the discriminator is unknown
// (an unknown kind with "content" decodes as a user_message_chunk), so
// the kind is read from the variant's own discriminator field: an unknown
// kind stays unknown.
func updateKind(u *acpsdk.SessionUpdate) string {
	switch {
	case u.UserMessageChunk != nil:
		return u.UserMessageChunk.SessionUpdate
	case u.AgentMessageChunk != nil:
		return u.AgentMessageChunk.SessionUpdate
	case u.AgentThoughtChunk != nil:
		return u.AgentThoughtChunk.SessionUpdate
	case u.ToolCall != nil:
		return u.ToolCall.SessionUpdate
	case u.ToolCallUpdate != nil:
		return u.ToolCallUpdate.SessionUpdate
	case u.Plan != nil:
		return u.Plan.SessionUpdate
	case u.AvailableCommandsUpdate != nil:
		return u.AvailableCommandsUpdate.SessionUpdate
	case u.CurrentModeUpdate != nil:
		return u.CurrentModeUpdate.SessionUpdate
	case u.ConfigOptionUpdate != nil:
		return u.ConfigOptionUpdate.SessionUpdate
	case u.SessionInfoUpdate != nil:
		return u.SessionInfoUpdate.SessionUpdate
	case u.UsageUpdate != nil:
		return u.UsageUpdate.SessionUpdate
	}
	return ""
}

// chunk maps an agent message or thought chunk.
func (s *state) chunk(t int64, kind event.Kind, c acpsdk.ContentBlock, what string) {
	text, _ := blockText(c)
	if text == "" {
		s.ignore("session/update " + what + " (empty)")
		return
	}
	s.ensureTurn(t)
	s.emit(t, event.Event{Kind: kind, Text: text})
	s.runBroken = true
}

// flushUser emits the user_message_chunk text gathered so far: inside a
// prompt's turn as a user message, else as a user turn of its own.
func (s *state) flushUser() {
	if !s.userChunk {
		return
	}
	text, t := s.userText.String(), s.userT
	s.userText.Reset()
	s.userChunk = false
	if s.turnOpen && !s.turnImplicit {
		s.emit(t, event.Event{Kind: event.KindUser, Text: text})
		s.runBroken = true
		return
	}
	if s.turnOpen {
		s.endTurn(t)
	}
	s.emit(t, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	s.emit(t, event.Event{Kind: event.KindUser, Text: text})
	s.emit(t, event.Event{Kind: event.KindTurnEnd})
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
}

// field builds an Extra member.
func field(key string, v any) event.Field {
	raw, err := json.Marshal(v)
	if err != nil {
		raw = []byte("null")
	}
	return event.Field{Key: key, Value: raw}
}
