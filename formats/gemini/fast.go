package gemini

import (
	"encoding/json"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// The fast decoders below read records with jsonscan and answer only
// where they are sure to agree with encoding/json (see jsonscan's
// fields.go); otherwise the caller decodes with encoding/json as before,
// so every problem text stays the same.

// decodeMessage decodes a message record as json.Unmarshal does.
func decodeMessage(raw []byte, m *message) error {
	if fastMessage(raw, m) {
		return nil
	}
	*m = message{}
	return json.Unmarshal(raw, m)
}

// fastMessage is decodeMessage's fast path.
func fastMessage(raw []byte, m *message) bool {
	members, ok := jsonscan.TopObject(raw, nil)
	if !ok || !jsonscan.Plain(members, "id", "timestamp", "type", "content", "toolCalls", "thoughts", "model", "tokens") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "id":
			ok = jsonscan.StringInto(mb.Val, &m.ID)
		case "timestamp":
			ok = jsonscan.StringInto(mb.Val, &m.Timestamp)
		case "type":
			ok = jsonscan.StringInto(mb.Val, &m.Type)
		case "content":
			jsonscan.RawInto(mb.Val, (*[]byte)(&m.Content))
		case "toolCalls":
			ok = jsonscan.List(mb.Val, &m.ToolCalls, fastToolCall)
		case "thoughts":
			ok = jsonscan.List(mb.Val, &m.Thoughts, fastThought)
		case "model":
			ok = jsonscan.StringInto(mb.Val, &m.Model)
		case "tokens":
			jsonscan.RawInto(mb.Val, (*[]byte)(&m.Tokens))
		}
		if !ok {
			return false
		}
	}
	return true
}

// thought is an element of a message's thoughts.
type thought = struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp"`
}

func fastThought(val []byte, t *thought) bool {
	members, ok := jsonscan.TopObject(val, nil)
	if !ok || !jsonscan.Plain(members, "subject", "description", "timestamp") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "subject":
			ok = jsonscan.StringInto(mb.Val, &t.Subject)
		case "description":
			ok = jsonscan.StringInto(mb.Val, &t.Description)
		case "timestamp":
			ok = jsonscan.StringInto(mb.Val, &t.Timestamp)
		}
		if !ok {
			return false
		}
	}
	return true
}

func fastToolCall(val []byte, c *toolCall) bool {
	members, ok := jsonscan.TopObject(val, nil)
	if !ok || !jsonscan.Plain(members, "id", "name", "args", "result", "status", "timestamp", "resultDisplay", "displayName") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "id":
			ok = jsonscan.StringPtrInto(mb.Val, &c.ID)
		case "name":
			ok = jsonscan.StringInto(mb.Val, &c.Name)
		case "args":
			jsonscan.RawInto(mb.Val, (*[]byte)(&c.Args))
		case "result":
			jsonscan.RawInto(mb.Val, (*[]byte)(&c.Result))
		case "status":
			ok = jsonscan.StringInto(mb.Val, &c.Status)
		case "timestamp":
			ok = jsonscan.StringInto(mb.Val, &c.Timestamp)
		case "resultDisplay":
			jsonscan.RawInto(mb.Val, (*[]byte)(&c.ResultDisplay))
		case "displayName":
			ok = jsonscan.StringInto(mb.Val, &c.DisplayName)
		}
		if !ok {
			return false
		}
	}
	return true
}

// decodeRecord decodes a session record as json.Unmarshal does.
func decodeRecord(line []byte, rec *sessionRecord) error {
	if fastRecord(line, rec) {
		return nil
	}
	*rec = sessionRecord{}
	return json.Unmarshal(line, rec)
}

func fastRecord(line []byte, rec *sessionRecord) bool {
	members, ok := jsonscan.TopObject(line, nil)
	if !ok || !jsonscan.Plain(members, "id", "$rewindTo", "$set", "sessionId") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "id":
			ok = jsonscan.StringPtrInto(mb.Val, &rec.ID)
		case "$rewindTo":
			ok = jsonscan.StringPtrInto(mb.Val, &rec.RewindTo)
		case "$set":
			jsonscan.RawInto(mb.Val, (*[]byte)(&rec.Set))
		case "sessionId":
			ok = jsonscan.StringPtrInto(mb.Val, &rec.SessionID)
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastDocument reports whether the document can be walked by walkChecked:
// one well-formed JSON object in UTF-8 whose "messages" members are
// arrays. Anything else is walked by the streaming decoder, which reports
// where the document breaks.
func (s *state) fastDocument() bool {
	members, ok := jsonscan.TopObject(s.data, nil)
	if !ok {
		return false
	}
	for _, m := range members {
		if key, _ := jsonscan.String(m.Key); key == "messages" && m.Val[0] != '[' {
			return false
		}
	}
	s.top = members
	return true
}

// walkChecked is document's walk of a checked document: the same members
// in the same order, each message at the line where it starts.
func (s *state) walkChecked() error {
	sawMessages := false
	for _, m := range s.top {
		key, _ := jsonscan.String(m.Key)
		if key != "messages" {
			s.metaMember(key, append(json.RawMessage(nil), m.Val...))
			continue
		}
		sawMessages = true
		elems, _ := jsonscan.Array(m.Val, nil) // checked by fastDocument
		for _, e := range elems {
			line := s.lineAt(int64(cap(s.data) - cap(e)))
			var msg message
			err := decodeMessage(e, &msg)
			te, _ := err.(*json.UnmarshalTypeError)
			if err != nil && te == nil {
				return s.b.Problem(line, "malformed JSON: "+err.Error())
			}
			if err := s.decoded(line, &msg, te); err != nil {
				return err
			}
		}
	}
	if !sawMessages {
		return s.b.Problem(1, `no "messages" array`)
	}
	return nil
}

// resultPart is an element of a stored tool result's part list.
type resultPart struct {
	FunctionResponse *struct {
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
	Text *string `json:"text"`
}

// responseBody is a functionResponse's response.
type responseBody struct {
	Output json.RawMessage `json:"output"`
	Error  json.RawMessage `json:"error"`
}

// textPart is an element of a message's part list, for its text.
type textPart struct {
	Text *string `json:"text"`
}

func fastTextPart(val []byte, p *textPart) bool {
	members, ok := jsonscan.TopObject(val, nil)
	if !ok || !jsonscan.Plain(members, "text") {
		return false
	}
	for _, mb := range members {
		if name, _ := jsonscan.Key(mb.Key); string(name) == "text" && !jsonscan.StringPtrInto(mb.Val, &p.Text) {
			return false
		}
	}
	return true
}

func fastResultPart(val []byte, p *resultPart) bool {
	members, ok := jsonscan.TopObject(val, nil)
	if !ok || !jsonscan.Plain(members, "functionResponse", "text") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "text":
			ok = jsonscan.StringPtrInto(mb.Val, &p.Text)
		case "functionResponse":
			ok = fastFunctionResponse(mb.Val, p)
		}
		if !ok {
			return false
		}
	}
	return true
}

func fastFunctionResponse(val []byte, p *resultPart) bool {
	if jsonscan.IsNull(val) {
		p.FunctionResponse = nil
		return true
	}
	members, ok := jsonscan.TopObject(val, nil)
	if !ok || !jsonscan.Plain(members, "response") {
		return false
	}
	p.FunctionResponse = &struct {
		Response json.RawMessage `json:"response"`
	}{}
	for _, mb := range members {
		if name, _ := jsonscan.Key(mb.Key); string(name) == "response" {
			jsonscan.RawInto(mb.Val, (*[]byte)(&p.FunctionResponse.Response))
		}
	}
	return true
}

func fastResponse(val []byte, r *responseBody) bool {
	members, ok := jsonscan.TopObject(val, nil)
	if !ok || !jsonscan.Plain(members, "output", "error") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "output":
			jsonscan.RawInto(mb.Val, (*[]byte)(&r.Output))
		case "error":
			jsonscan.RawInto(mb.Val, (*[]byte)(&r.Error))
		}
	}
	return true
}
