package vcr_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// geminiCassette is a cassette of Gemini API interactions (the URL tells
// streamGenerateContent from generateContent).
func geminiCassette(ias ...interaction) string {
	return strings.ReplaceAll(cassette(ias...), "https://api.example.com/v1/x",
		"https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse")
}

func TestGemini(t *testing.T) {
	user := `{"role":"user","parts":[{"text":"Fix it"}]}`
	sys := `"systemInstruction":{"parts":[{"text":"You are a coding agent."}]}`
	model := `{"role":"model","parts":[{"text":"Looking."},{"functionCall":{"name":"bash","args":{"command":"go build"}}},{"functionCall":{"name":"bash","args":{"command":"go vet"}}}]}`
	tests := []struct {
		name     string
		in       string
		want     []string
		problems []string
		meta     string
	}{
		{
			name: "streamed calls get ids from their position; results pair in order, error fails",
			in: geminiCassette(
				interaction{req: `{"contents":[` + user + `],` + sys + `}`,
					resp: `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Looking."}]},"index":0}],"responseId":"r1"}` + "\n\n" +
						`data: {"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"bash","args":{"command":"go build"}}},{"functionCall":{"name":"bash","args":{"command":"go vet"}}}]},"finishReason":"STOP","index":0}],"responseId":"r1"}` + "\n"},
				interaction{req: `{"contents":[` + user + `,` + model + `,{"role":"user","parts":[{"functionResponse":{"name":"bash","response":{"error":"exit status 1"}}},{"functionResponse":{"name":"bash","response":{"output":"ok"}}}]}],` + sys + `}`,
					resp: `[{"candidates":[{"content":{"role":"model","parts":[{"text":"Build fails."}]},"finishReason":"STOP","index":0}],"responseId":"r2"}]`}),
			want: []string{turnSU, userText, turnE, turnSA, `{"kind":"text","text":"Looking."}`,
				`{"kind":"tool_start","id":"gemini:1.0","name":"bash","args":{"command":"go build"},"batch":"r1"}`,
				`{"kind":"tool_start","id":"gemini:1.1","name":"bash","args":{"command":"go vet"},"batch":"r1"}`,
				`{"kind":"tool_done","id":"gemini:1.0","ok":false,"error":"exit status 1"}`,
				`{"kind":"tool_done","id":"gemini:1.1","output":"ok","ok":true}`,
				`{"kind":"text","text":"Build fails."}`, turnE},
			meta: `{"cassette_version":2,"interactions":2}`,
		},
		{
			name: "results given out of order pair by name; ids from the model are kept; thoughts are thinking",
			in: geminiCassette(
				interaction{req: `{"contents":[` + user + `]}`,
					resp: `{"candidates":[{"content":{"role":"model","parts":[{"text":"plan","thought":true},{"functionCall":{"id":"fc-a","name":"ls","args":{}}},{"functionCall":{"name":"read_file","args":{"absolute_path":"/a.go"}}}]},"finishReason":"STOP","index":0}]}`},
				interaction{req: `{"contents":[` + user + `,{"role":"model","parts":[{"functionCall":{"id":"fc-a","name":"ls","args":{}}},{"functionCall":{"name":"read_file","args":{"absolute_path":"/a.go"}}}]},{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"package a"}}},{"functionResponse":{"id":"fc-a","name":"ls","response":{"output":"a.go"}}}]}]}`,
					resp: `{"candidates":[{"content":{"role":"model","parts":[{"text":"Done."}]},"finishReason":"MAX_TOKENS","index":0}]}`}),
			want: []string{turnSU, userText, turnE, turnSA, `{"kind":"thinking","text":"plan"}`,
				`{"kind":"tool_start","id":"fc-a","name":"ls","args":{}}`,
				`{"kind":"tool_start","id":"gemini:1.1","name":"read_file","args":{"absolute_path":"/a.go"}}`,
				`{"kind":"tool_done","id":"gemini:1.1","output":"package a","ok":true}`,
				`{"kind":"tool_done","id":"fc-a","output":"a.go","ok":true}`,
				`{"kind":"text","text":"Done."}`,
				`{"kind":"error","message":"finishReason MAX_TOKENS: the response was cut short"}`, turnE},
		},
		{
			name: "an API error body, and a stream with no finishReason",
			in: geminiCassette(
				interaction{req: `{"contents":[` + user + `]}`, code: 429,
					resp: `{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}`},
				interaction{req: `{"contents":[` + user + `]}`,
					resp: `data: {"candidates":[{"content":{"role":"model","parts":[{"text":"Par"}]},"index":0}]}` + "\n"}),
			want: []string{turnSU, userText, turnE, `{"kind":"error","message":"HTTP 429: Resource has been exhausted"}`,
				turnSA, `{"kind":"text","text":"Par"}`},
			problems: []string{`line 21: interaction 1: the Gemini response has no finishReason: cut off`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, problems, meta := run(t, tt.in, false)
			if diff := cmp.Diff(tt.want, evs); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if tt.meta != "" && meta != tt.meta {
				t.Errorf("meta = %s, want %s", meta, tt.meta)
			}
		})
	}
}
