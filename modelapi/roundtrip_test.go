package modelapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"gopkg.in/yaml.v3"
	"pgregory.net/rapid"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/anthropicsse"
	"github.com/toolsim/toolsim/formats/openaichat"
	"github.com/toolsim/toolsim/formats/openairesponses"
	"github.com/toolsim/toolsim/formats/vcr"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/modelapi"
)

// tb is what the helpers need of a *testing.T or *rapid.T.
type tb interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
}

// ev is the part of a canonical event a reply determines.
type ev struct {
	Kind  event.Kind
	Role  string
	Text  string
	ID    string
	Name  string
	Args  string // normalized JSON
	Batch string
}

// textRunes mixes what JSON, SSE and YAML must carry through: quotes,
// backslashes, HTML characters, newlines, tabs, non-ASCII.
var textRunes = []rune("ab <>&\"'\\\n\t:#-é日🙂")

func genText() *rapid.Generator[string] {
	return rapid.OneOf(rapid.Just(""), rapid.StringOfN(rapid.RuneFrom(textRunes), 1, 30, -1))
}

func genArgs() *rapid.Generator[json.RawMessage] {
	value := rapid.OneOf(
		rapid.StringOfN(rapid.RuneFrom(textRunes), 0, 10, -1).AsAny(),
		rapid.IntRange(-1000, 1000).AsAny(),
		rapid.Bool().AsAny(),
		rapid.Just[any](nil),
		rapid.SliceOfN(rapid.IntRange(0, 9), 0, 3).AsAny(),
	)
	return rapid.Custom(func(t *rapid.T) json.RawMessage {
		if rapid.Bool().Draw(t, "nilArgs") {
			return nil
		}
		m := rapid.MapOfN(rapid.SampledFrom([]string{"path", "command", "a b", "<k>", "日"}), value, 0, 4).Draw(t, "args")
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatalf("marshal args: %v", err)
		}
		return b
	})
}

// genReply draws a reply: text or not, then 0..5 calls with distinct
// ids from a small alphabet (or none, for the encoder to fill).
func genReply(t *rapid.T) modelapi.Reply {
	n := rapid.IntRange(0, 5).Draw(t, "calls")
	ids := rapid.SliceOfNDistinct(rapid.StringOfN(rapid.RuneFrom([]rune("abc")), 1, 3, -1), n, n, rapid.ID[string]).Draw(t, "ids")
	r := modelapi.Reply{Text: genText().Draw(t, "text")}
	for i := range n {
		c := modelapi.Call{
			ID:   ids[i],
			Name: rapid.StringMatching(`[a-z][a-z_]{0,8}`).Draw(t, "name"),
			Args: genArgs().Draw(t, "args"),
		}
		if rapid.Bool().Draw(t, "noID") {
			c.ID = ""
		}
		if rapid.Bool().Draw(t, "namespaced") {
			c.Namespace = "mcp__" + rapid.StringMatching(`[a-z]{1,5}`).Draw(t, "namespace")
		}
		r.Calls = append(r.Calls, c)
	}
	return r
}

// wantEvents are the canonical events reply r implies: an assistant turn
// with its text, a tool_start per call batched by respID, turn_end when
// it made no calls. A Gemini call without id is "gemini:1.J" (the
// importer's id for call J of the model content at index 1, after the
// one user content of the cassette).
func wantEvents(t tb, d modelapi.Dialect, r modelapi.Reply, respID string) []ev {
	out := []ev{{Kind: event.KindTurnStart, Role: event.RoleAssistant}}
	if r.Text != "" {
		out = append(out, ev{Kind: event.KindText, Text: r.Text})
	}
	for i, c := range r.WithIDs(d, respID).Calls {
		id := c.ID
		if id == "" {
			id = fmt.Sprintf("gemini:1.%d", i)
		}
		out = append(out, ev{Kind: event.KindToolStart, ID: id, Name: c.Name, Args: normJSON(t, c.Args), Batch: respID})
	}
	if len(r.Calls) == 0 {
		out = append(out, ev{Kind: event.KindTurnEnd})
	}
	return out
}

// normJSON is raw re-encoded with sorted keys ({} when empty).
func normJSON(t tb, raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("args %s: %v", raw, err)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// project keeps the fields a reply determines, from the first assistant
// turn on (a cassette's user turn comes before), adjacent texts joined.
func project(t tb, evs []event.Event) []ev {
	var out []ev
	for _, e := range evs {
		if out == nil && !(e.Kind == event.KindTurnStart && e.Role == event.RoleAssistant) {
			continue
		}
		if e.Kind == event.KindText && len(out) > 0 && out[len(out)-1].Kind == event.KindText {
			out[len(out)-1].Text += e.Text
			continue
		}
		p := ev{Kind: e.Kind, Role: e.Role, Text: e.Text, ID: e.ID, Name: e.Name, Batch: e.Batch}
		if e.Kind == event.KindToolStart {
			p.Args = normJSON(t, e.Args)
		}
		out = append(out, p)
	}
	return out
}

// userRequests are minimal request bodies (one user message "hi") and
// URLs per dialect, for cassettes.
var userRequests = map[modelapi.Dialect][2]string{
	modelapi.Responses: {"http://127.0.0.1/v1/responses", `{"model":"m","stream":true,"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}]}`},
	modelapi.Chat:      {"http://127.0.0.1/v1/chat/completions", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`},
	modelapi.Anthropic: {"http://127.0.0.1/v1/messages", `{"model":"m","stream":true,"messages":[{"role":"user","content":"hi"}]}`},
	modelapi.Gemini:    {"http://127.0.0.1/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", `{"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`},
}

// cassette is a one-interaction go-vcr cassette: d's user request, and
// body answered with status.
func cassette(t tb, d modelapi.Dialect, body string, status int) []byte {
	req := userRequests[d]
	c := map[string]any{"version": 2, "interactions": []any{map[string]any{
		"id":       0,
		"request":  map[string]any{"body": req[1], "url": req[0], "method": "POST"},
		"response": map[string]any{"body": body, "status": fmt.Sprintf("%d X", status), "code": status},
	}}}
	b, err := yaml.Marshal(c)
	if err != nil {
		t.Fatalf("cassette: %v", err)
	}
	return b
}

// importStream imports an encoded stream with toolsim's importer of its
// format (Gemini: in a cassette, through formats/vcr).
func importStream(t tb, d modelapi.Dialect, body []byte) *importer.Result {
	var im importer.Importer
	switch d {
	case modelapi.Responses:
		im = openairesponses.Importer{}
	case modelapi.Chat:
		im = openaichat.Importer{}
	case modelapi.Anthropic:
		im = anthropicsse.Importer{}
	default:
		im, body = vcr.Importer{}, cassette(t, d, string(body), 200)
	}
	res, err := im.Import(bytes.NewReader(body), importer.Options{Name: string(d)})
	if err != nil {
		t.Fatalf("import %s: %v\n%s", d, err, body)
	}
	return res
}

// TestEncodeRoundTrip: for every dialect, a random reply encoded and
// imported by toolsim's own importer gives the events the reply implies,
// with no import problem.
func TestEncodeRoundTrip(t *testing.T) {
	for _, d := range modelapi.Dialects {
		t.Run(string(d), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				r := genReply(rt)
				respID := rapid.SampledFrom([]string{"r1", "msg_01Abc", "resp-9"}).Draw(rt, "respID")
				var b bytes.Buffer
				if err := modelapi.Encode(&b, d, r, respID); err != nil {
					rt.Fatalf("encode: %v", err)
				}
				res := importStream(rt, d, b.Bytes())
				checkImport(rt, res, wantEvents(rt, d, r, respID), b.String())
			})
		})
	}
}

// TestEncodeJSONRoundTrip: the whole (non-streamed) body of a random
// reply, answered to a cassette request, imports through formats/vcr as
// the same events.
func TestEncodeJSONRoundTrip(t *testing.T) {
	for _, d := range modelapi.Dialects {
		t.Run(string(d), func(t *testing.T) {
			rapid.Check(t, func(rt *rapid.T) {
				r := genReply(rt)
				var b bytes.Buffer
				if err := modelapi.EncodeJSON(&b, d, r, "r1"); err != nil {
					rt.Fatalf("encode: %v", err)
				}
				res, err := vcr.Importer{}.Import(bytes.NewReader(cassette(rt, d, b.String(), 200)), importer.Options{})
				if err != nil {
					rt.Fatalf("import: %v", err)
				}
				checkImport(rt, res, wantEvents(rt, d, r, "r1"), b.String())
			})
		})
	}
}

func checkImport(t tb, res *importer.Result, want []ev, body string) {
	t.Helper()
	if len(res.Problems) > 0 {
		t.Errorf("import problems: %v\nbody:\n%s", res.Problems, body)
	}
	if diff := cmp.Diff(want, project(t, res.Events)); diff != "" {
		t.Fatalf("events (-want +got):\n%s\nbody:\n%s", diff, body)
	}
}

// TestEncodeErrorReply: a reply with a Status is the dialect's error
// body, which the vcr importer reads as an HTTP error with its message.
func TestEncodeErrorReply(t *testing.T) {
	tests := []struct {
		d      modelapi.Dialect
		status int
		msg    string
		want   string
	}{
		{modelapi.Anthropic, 529, "", "HTTP 529: overloaded_error: Overloaded"},
		{modelapi.Responses, 500, "boom", "HTTP 500: server_error: boom"},
		{modelapi.Chat, 429, "slow down", "HTTP 429: requests: slow down"},
		{modelapi.Gemini, 503, "busy", "HTTP 503: busy"},
	}
	for _, tt := range tests {
		t.Run(string(tt.d), func(t *testing.T) {
			var b bytes.Buffer
			if err := modelapi.Encode(&b, tt.d, modelapi.Reply{Status: tt.status, Error: tt.msg}, "r1"); err != nil {
				t.Fatal(err)
			}
			res, err := vcr.Importer{}.Import(bytes.NewReader(cassette(t, tt.d, b.String(), tt.status)), importer.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range res.Events {
				if e.Kind == event.KindError {
					got = append(got, e.Message)
				}
			}
			if diff := cmp.Diff([]string{tt.want}, got); diff != "" {
				t.Errorf("error events (-want +got):\n%s\nbody: %s", diff, b.String())
			}
		})
	}
}

// TestEncodeDeterministic: the same reply encodes to the same bytes.
func TestEncodeDeterministic(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		r := genReply(rt)
		d := rapid.SampledFrom(modelapi.Dialects).Draw(rt, "dialect")
		var a, b bytes.Buffer
		if err := modelapi.Encode(&a, d, r, "r1"); err != nil {
			rt.Fatal(err)
		}
		if err := modelapi.Encode(&b, d, r, "r1"); err != nil {
			rt.Fatal(err)
		}
		if a.String() != b.String() {
			rt.Fatalf("two encodings differ:\n%s\n---\n%s", a.String(), b.String())
		}
	})
}

// TestEncodeRejects: bad replies and dialects are errors naming the
// problem, and nothing is written.
func TestEncodeRejects(t *testing.T) {
	tests := []struct {
		name string
		d    modelapi.Dialect
		r    modelapi.Reply
		want string
	}{
		{"unknown dialect", "bedrock", modelapi.Reply{Text: "x"}, `unknown dialect "bedrock"`},
		{"call without name", modelapi.Chat, modelapi.Reply{Calls: []modelapi.Call{{ID: "a"}}}, `call 0 (id "a"): no name`},
		{"args not an object", modelapi.Anthropic, modelapi.Reply{Calls: []modelapi.Call{{Name: "x", Args: json.RawMessage(`[1]`)}}}, `are not a JSON object`},
		{"status not an error", modelapi.Gemini, modelapi.Reply{Status: 200}, `reply status 200`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			err := modelapi.Encode(&b, tt.d, tt.r, "r1")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one containing %q", err, tt.want)
			}
			if b.Len() > 0 {
				t.Errorf("wrote %q on error", b.String())
			}
		})
	}
}
