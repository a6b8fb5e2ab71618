package acp

import (
	"bytes"
	"encoding/json"

	acpsdk "github.com/coder/acp-go-sdk"
)

// line maps one source line.
func (s *state) line(n int, raw []byte) error {
	s.b.SetLine(n) // records without a time of their own take the line's arrival stamp
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
	if !fastEnvelope(sl.json, &env, &s.members) {
		env = envelope{}
		if err := json.Unmarshal(sl.json, &env); err != nil {
			s.problem("malformed JSON%s: %v", where, err)
			return s.err
		}
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
	from := s.sender(method, dir)
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
		s.initialize(env.Params)
	case acpsdk.AgentMethodSessionNew:
		s.newSession(env.Params)
	case acpsdk.AgentMethodSessionLoad:
		s.loadSession(env.Params)
	default:
		s.ignore(method)
	}
}

// sender names who sent a method, and learns from the first method with a
// known sender which direction marker stands for the client.
func (s *state) sender(method string, dir byte) byte {
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
	return from
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

// other is the direction opposite to dir.
func other(dir byte) byte {
	if dir == dirIn {
		return dirOut
	}
	return dirIn
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
		s.otherResponse(t, req, env)
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
