package acp

import (
	"bytes"
	"encoding/json"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
)

// blockText is the text a content block shows. Text blocks give their
// text; the others a placeholder that names them (placeholder=true), so
// that a transcript shows where an image or a link was.
func blockText(c acpsdk.ContentBlock) (text string, placeholder bool) {
	switch {
	case c.Text != nil:
		return c.Text.Text, false
	case c.ResourceLink != nil:
		name := c.ResourceLink.Name
		if name == "" {
			name = c.ResourceLink.Uri
		}
		return "[" + name + "](" + c.ResourceLink.Uri + ")", true
	case c.Resource != nil:
		r := c.Resource.Resource
		if r.TextResourceContents != nil {
			return r.TextResourceContents.Text, false
		}
		if r.BlobResourceContents != nil {
			return "[resource " + r.BlobResourceContents.Uri + "]", true
		}
		return "[resource]", true
	case c.Image != nil:
		return "[image " + c.Image.MimeType + "]", true
	case c.Audio != nil:
		return "[audio " + c.Audio.MimeType + "]", true
	}
	return "[content]", true
}

// toolContentText joins the text of a tool call's content collection, one
// item per line. Diffs and terminals are shown by placeholders
// ("[diff PATH]", "[terminal ID]"); placeholder reports whether any was
// used, so the caller can keep the raw collection.
func toolContentText(items []acpsdk.ToolCallContent) (text string, placeholder bool) {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case it.Content != nil:
			s, ph := blockText(it.Content.Content)
			b.WriteString(s)
			placeholder = placeholder || ph
		case it.Diff != nil:
			b.WriteString("[diff " + it.Diff.Path + "]")
			placeholder = true
		case it.Terminal != nil:
			b.WriteString("[terminal " + it.Terminal.TerminalId + "]")
			placeholder = true
		default:
			placeholder = true
		}
	}
	return b.String(), placeholder
}

// rawOutputText is the text of a tool's rawOutput: a string as is; an
// object's string "content", "output" or "stdout" member (complete=false
// when the object has other members, which the caller then keeps);
// anything else as compact JSON.
func rawOutputText(raw json.RawMessage) (text string, complete bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return "", true
	}
	switch raw[0] {
	case '"':
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, true
		}
	case '{':
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) == nil {
			for _, key := range []string{"content", "output", "stdout"} {
				var s string
				if v, ok := m[key]; ok && json.Unmarshal(v, &s) == nil {
					return s, len(m) == 1
				}
			}
		}
	}
	return compact(raw), true
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// present reports whether an optional raw member was given (and not null).
func present(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && string(raw) != "null"
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// emptyObject reports whether raw is the JSON object {}.
func emptyObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return isObject(raw) && json.Unmarshal(raw, &m) == nil && len(m) == 0
}
