package gemini

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// result is what a call's stored result says.
type result struct {
	output string
	err    string
	extra  []event.Field
}

// readResult reads result[].functionResponse.response ({output} or
// {error}) and resultDisplay.
func readResult(tc *toolCall) result {
	var res result
	var other int
	if len(tc.Result) > 0 {
		res.output, res.err, other = readParts(tc.Result)
	}
	display := textOf(tc.ResultDisplay)
	if res.err == "" && tc.Status == "error" {
		res.err = display
	}
	if res.output == "" && tc.Status == "success" {
		res.output = display
	}
	if other > 0 {
		res.extra = append(res.extra, event.Field{Key: "result", Value: compact(tc.Result)})
	}
	if len(tc.ResultDisplay) > 0 && string(tc.ResultDisplay) != "null" && display == "" {
		res.extra = append(res.extra, event.Field{Key: "result_display", Value: compact(tc.ResultDisplay)})
	}
	return res
}

// readParts reads the parts of a stored result: the outputs and text
// joined, the first error, and how many other parts (inline data) there
// are. A result that is not a part list gives nothing.
func readParts(raw json.RawMessage) (output, errText string, other int) {
	var parts []resultPart
	if !jsonscan.List(raw, &parts, fastResultPart) {
		parts = nil
		if json.Unmarshal(raw, &parts) != nil {
			return "", "", 0
		}
	}
	var outs []string
	for _, p := range parts {
		switch {
		case p.FunctionResponse != nil:
			outs = functionResponse(p.FunctionResponse.Response, outs, &errText)
		case p.Text != nil:
			outs = append(outs, *p.Text)
		default:
			other++ // inline data (images, files): kept in Extra by readResult
		}
	}
	return strings.Join(outs, "\n"), errText, other
}

// functionResponse reads a functionResponse.response: its output is
// appended to outs, its error kept in errText unless one is already;
// a response with neither is appended whole.
func functionResponse(resp json.RawMessage, outs []string, errText *string) []string {
	var r responseBody
	if !fastResponse(resp, &r) {
		r = responseBody{}
		if json.Unmarshal(resp, &r) != nil {
			return outs
		}
	}
	if s := textOf(r.Output); s != "" {
		outs = append(outs, s)
	}
	if s := textOf(r.Error); s != "" && *errText == "" {
		*errText = s
	}
	if len(r.Output) == 0 && len(r.Error) == 0 && len(resp) > 0 {
		outs = append(outs, string(compact(resp)))
	}
	return outs
}

// textOf is a JSON string's value, or the compact JSON of anything else
// but null.
func textOf(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s, ok := jsonscan.String(raw); ok {
		return s // raw is checked JSON: the string encoding/json decodes
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if raw[0] == '{' || raw[0] == '[' {
		return ""
	}
	return string(raw)
}
