package sse

import (
	"encoding/json"
	"errors"
	"strings"
)

// anthropicTypes are the event types only Anthropic streams use.
var anthropicTypes = map[string]bool{
	"message_start": true, "message_delta": true, "message_stop": true,
	"content_block_start": true, "content_block_delta": true, "content_block_stop": true,
}

var errDecided = errors.New("decided")

// DetectDialect tells which dialect an SSE stream is from its first bytes
// (a head that may end mid-event): the first event that names a dialect
// decides. Anthropic: event types message_* / content_block_*. OpenAI
// Responses: types "response.*". OpenAI Chat: data objects with "object":
// "chat.completion.chunk" (or a "choices" list of deltas). Events that fit
// several (ping, error, comments, [DONE]) are skipped. Unknown when
// nothing decides, or when the input does not look like SSE at all (a line
// that is neither a field, a comment nor blank comes first).
func DetectDialect(head []byte) Dialect {
	if !looksLikeSSE(head) {
		return Unknown
	}
	d := Unknown
	_, _ = ParseBytes(head, func(ev *Event) error {
		if d = eventDialect(ev); d != Unknown {
			return errDecided
		}
		return nil
	})
	return d
}

// looksLikeSSE checks that the first non-blank line is an SSE field
// ("event:", "data:", "id:", "retry:") or a comment.
func looksLikeSSE(head []byte) bool {
	s := strings.TrimPrefix(string(head[:min(len(head), 4096)]), "\xEF\xBB\xBF")
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] == ':' {
			return true
		}
		name, _, ok := strings.Cut(line, ":")
		return ok && (name == "event" || name == "data" || name == "id" || name == "retry")
	}
	return false
}

func eventDialect(ev *Event) Dialect {
	if d := typeDialect(ev.Type); d != Unknown {
		return d
	}
	if !ev.HasData || len(ev.Data) == 0 || ev.Data[0] != '{' {
		return Unknown
	}
	var m struct {
		Type    string            `json:"type"`
		Object  string            `json:"object"`
		Choices []json.RawMessage `json:"choices"`
	}
	if json.Unmarshal(ev.Data, &m) != nil {
		return Unknown
	}
	if d := typeDialect(m.Type); d != Unknown {
		return d
	}
	if m.Object == "chat.completion.chunk" || m.Object == "" && m.Type == "" && len(m.Choices) > 0 {
		return OpenAIChat
	}
	return Unknown
}

func typeDialect(typ string) Dialect {
	switch {
	case anthropicTypes[typ]:
		return Anthropic
	case strings.HasPrefix(typ, "response."):
		return OpenAIResponses
	}
	return Unknown
}
