package modelapi_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/toolsim/toolsim/modelapi"
)

func raw(s string) json.RawMessage { return json.RawMessage(s) }

// Realistic request bodies, shaped after what the four apps send.
const (
	// codexMain: Codex CLI's Responses request mid-turn: developer and
	// environment messages, the prompt, reasoning, a shell call, a
	// namespaced MCP call with content-item output, a freeform
	// apply_patch, a result whose call is absent, an unknown item.
	codexMain = `{"model":"gpt-5.1-codex","instructions":"You are Codex.","input":[
	{"type":"message","role":"developer","content":[{"type":"input_text","text":"<permissions instructions>"}]},
	{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd</environment_context>"}]},
	{"type":"message","role":"user","content":[{"type":"input_text","text":"list the files"}]},
	{"type":"reasoning","summary":[],"encrypted_content":null},
	{"type":"function_call","name":"shell_command","arguments":"{\"command\": \"ls\"}","call_id":"call_1"},
	{"type":"function_call_output","call_id":"call_1","output":"a.go\nb.go"},
	{"type":"function_call","name":"lookup","namespace":"mcp__toolsim","arguments":"","call_id":"call_2"},
	{"type":"function_call_output","call_id":"call_2","output":[{"type":"input_text","text":"found"},{"type":"input_image","image_url":"data:"}]},
	{"type":"custom_tool_call","status":"completed","call_id":"call_3","name":"apply_patch","input":"*** Begin Patch"},
	{"type":"custom_tool_call_output","call_id":"call_3","output":"Success"},
	{"type":"function_call_output","call_id":"call_gone","output":{"content":"failed","success":false}},
	{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]},
	{"type":"message","role":"user","content":[{"type":"input_text","text":"<environment_context>cwd 2</environment_context>"}]},
	{"type":"frobnicate"}],
	"tools":[{"type":"function","name":"shell_command","strict":false,"parameters":{"type":"object"}},
	{"type":"custom","name":"apply_patch","format":{"type":"grammar"}},{"type":"web_search"},
	{"type":"namespace","name":"mcp__toolsim","description":"MCP","tools":[{"type":"function","name":"lookup","parameters":{}}]}],
	"tool_choice":"auto","parallel_tool_calls":false,"reasoning":{"effort":"medium"},"store":false,"stream":true}`

	// codexTitle: a title request offers no tools and asks for JSON.
	codexTitle = `{"model":"gpt-5.1-codex-mini","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"Generate a title"}]}],
	"tools":[],"stream":true,"text":{"format":{"type":"json_schema","name":"title","strict":true,"schema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}}}`

	// opencodeMain: opencode through @ai-sdk/openai-compatible.
	opencodeMain = `{"model":"toolsim","messages":[{"role":"system","content":"You are opencode"},
	{"role":"user","content":[{"type":"text","text":"read a.go"}]},
	{"role":"assistant","content":"","tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{\"filePath\":\"a.go\"}"}}]},
	{"role":"tool","tool_call_id":"call_1","content":"package a"},
	{"role":"tool","tool_call_id":"call_x","content":[{"type":"text","text":"lost"}]}],
	"tools":[{"type":"function","function":{"name":"read","parameters":{}}},{"type":"function","function":{"name":"bash"}}],
	"tool_choice":"auto","stream":true,"stream_options":{"include_usage":true}}`

	// claudeMain: Claude Code: system reminders, thinking, two tool_use
	// blocks, an error result with mixed content, a result whose call is
	// absent, a server tool.
	claudeMain = `{"model":"claude-sonnet-4-5","max_tokens":32000,"stream":true,
	"system":[{"type":"text","text":"You are Claude Code","cache_control":{"type":"ephemeral"}}],
	"messages":[{"role":"user","content":[{"type":"text","text":"<system-reminder>ctx</system-reminder>"},{"type":"text","text":"run ls","cache_control":{"type":"ephemeral"}}]},
	{"role":"system","content":[{"type":"text","text":"# Environment"}]},
	{"role":"assistant","content":[{"type":"thinking","thinking":"hm","signature":"x"},{"type":"text","text":"Running."},
		{"type":"tool_use","id":"toolu_01","name":"Bash","input":{"command":"ls"}},{"type":"tool_use","id":"toolu_02","name":"mcp__toolsim__lookup","input":{}}]},
	{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"a.go","is_error":false},
		{"type":"tool_result","tool_use_id":"toolu_02","content":[{"type":"text","text":"denied"},{"type":"image","source":{}}],"is_error":true},
		{"type":"tool_result","tool_use_id":"toolu_99","content":"orphan"},{"type":"wat"}]}],
	"tools":[{"name":"Bash","input_schema":{}},{"name":"mcp__toolsim__lookup","input_schema":{}},{"type":"web_search_20250305","name":"web_search"}]}`

	// claudeTitle: a tool-free helper asking for JSON (output_format).
	claudeTitle = `{"model":"claude-haiku-4-5","max_tokens":512,"messages":[{"role":"user","content":"name this session"}],
	"output_format":{"type":"json_schema","schema":{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}}}`

	// geminiMain: Gemini CLI: calls without ids answered out of order (one
	// an error), a call with an id, a response with no call left.
	geminiMain = `{"contents":[{"role":"user","parts":[{"text":"<session_context>\nGemini CLI\n</session_context>"},{"text":"list files"}]},
	{"role":"model","parts":[{"text":"Listing."},{"functionCall":{"name":"list_directory","args":{"path":"."}}},{"functionCall":{"name":"read_file","args":{"absolute_path":"/a.go"}}}]},
	{"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"error":"no such file"}}},{"functionResponse":{"name":"list_directory","response":{"output":"a.go"}}}]},
	{"role":"model","parts":[{"text":"plan","thought":true},{"functionCall":{"id":"fc-1","name":"mcp_tool","args":{}}}]},
	{"role":"user","parts":[{"functionResponse":{"id":"fc-1","name":"mcp_tool","response":{"output":"ok"}}},{"functionResponse":{"name":"stray","response":{"output":"x"}}}]}],
	"systemInstruction":{"parts":[{"text":"You are Gemini CLI"}]},
	"tools":[{"functionDeclarations":[{"name":"list_directory"},{"name":"read_file"},{"name":"mcp_tool"}]},{"googleSearch":{}}],
	"generationConfig":{"temperature":0,"thinkingConfig":{"includeThoughts":true}}}`

	// geminiNextSpeaker: the next-speaker check (generateJson).
	geminiNextSpeaker = `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"Hello"}]},{"role":"user","parts":[{"text":"Analyze *only* the content"}]}],
	"generationConfig":{"responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string","enum":["user","model"]}},"required":["reasoning","next_speaker"]},"responseMimeType":"application/json"}}`
)

func TestParseRequest(t *testing.T) {
	tests := []struct {
		name           string
		method, target string
		body           string
		want           modelapi.Request
		err            string
	}{
		{
			name: "codex main request", method: "POST", target: "/v1/responses", body: codexMain,
			want: modelapi.Request{Dialect: modelapi.Responses, Kind: modelapi.Main, Model: "gpt-5.1-codex", Stream: true,
				Tools: []string{"shell_command", "apply_patch", "web_search", "mcp__toolsim.lookup"},
				Calls: []modelapi.Call{
					{ID: "call_1", Name: "shell_command", Args: raw(`{"command":"ls"}`)},
					{ID: "call_2", Name: "lookup", Namespace: "mcp__toolsim", Args: raw(`{}`)},
					{ID: "call_3", Name: "apply_patch", Args: raw(`{"input":"*** Begin Patch"}`)}},
				Results: []modelapi.Result{
					{CallID: "call_1", Name: "shell_command", Text: "a.go\nb.go"},
					{CallID: "call_2", Name: "lookup", Text: "found\n[input_image]"},
					{CallID: "call_3", Name: "apply_patch", Text: "Success"},
					{CallID: "call_gone", Text: "failed", IsError: true}},
				LastUser: "list the files",
				Unknown:  []string{`input[13]: item type "frobnicate"`}},
		},
		{
			name: "codex title request: no tools is side, its JSON schema kept", method: "POST", target: "/responses", body: codexTitle,
			want: modelapi.Request{Dialect: modelapi.Responses, Kind: modelapi.Side, Model: "gpt-5.1-codex-mini", Stream: true,
				LastUser: "Generate a title",
				Schema:   raw(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)},
		},
		{
			name: "opencode chat request", method: "POST", target: "/v1/chat/completions", body: opencodeMain,
			want: modelapi.Request{Dialect: modelapi.Chat, Kind: modelapi.Main, Model: "toolsim", Stream: true,
				Tools:    []string{"read", "bash"},
				Calls:    []modelapi.Call{{ID: "call_1", Name: "read", Args: raw(`{"filePath":"a.go"}`)}},
				Results:  []modelapi.Result{{CallID: "call_1", Name: "read", Text: "package a"}, {CallID: "call_x", Text: "lost"}},
				LastUser: "read a.go"},
		},
		{
			name: "claude code request", method: "POST", target: "/v1/messages?beta=true", body: claudeMain,
			want: modelapi.Request{Dialect: modelapi.Anthropic, Kind: modelapi.Main, Model: "claude-sonnet-4-5", Stream: true,
				Tools: []string{"Bash", "mcp__toolsim__lookup", "web_search"},
				Calls: []modelapi.Call{
					{ID: "toolu_01", Name: "Bash", Args: raw(`{"command":"ls"}`)},
					{ID: "toolu_02", Name: "mcp__toolsim__lookup", Args: raw(`{}`)}},
				Results: []modelapi.Result{
					{CallID: "toolu_01", Name: "Bash", Text: "a.go"},
					{CallID: "toolu_02", Name: "mcp__toolsim__lookup", Text: "denied\n[image]", IsError: true},
					{CallID: "toolu_99", Text: "orphan"}},
				LastUser: "run ls",
				Unknown:  []string{`messages[3].content[3]: block type "wat"`}},
		},
		{
			name: "claude code title helper: side, not streamed, JSON", method: "POST", target: "/v1/messages", body: claudeTitle,
			want: modelapi.Request{Dialect: modelapi.Anthropic, Kind: modelapi.Side, Model: "claude-haiku-4-5",
				LastUser: "name this session",
				Schema:   raw(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)},
		},
		{
			name: "gemini cli request: ids from positions, results paired by id, then name, a stray one", method: "POST",
			target: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse", body: geminiMain,
			want: modelapi.Request{Dialect: modelapi.Gemini, Kind: modelapi.Main, Model: "gemini-2.5-pro", Stream: true,
				Query: "alt=sse",
				Tools: []string{"list_directory", "read_file", "mcp_tool", "googleSearch"},
				Calls: []modelapi.Call{
					{ID: "gemini:1.0", Name: "list_directory", Args: raw(`{"path":"."}`)},
					{ID: "gemini:1.1", Name: "read_file", Args: raw(`{"absolute_path":"/a.go"}`)},
					{ID: "fc-1", Name: "mcp_tool", Args: raw(`{}`)}},
				Results: []modelapi.Result{
					{CallID: "gemini:1.1", Name: "read_file", Text: "no such file", IsError: true},
					{CallID: "gemini:1.0", Name: "list_directory", Text: "a.go"},
					{CallID: "fc-1", Name: "mcp_tool", Text: "ok"},
					{Name: "stray", Text: "x"}},
				LastUser: "list files",
				Unknown:  []string{`contents[4]: functionResponse "stray" answers no call before it`}},
		},
		{
			name: "gemini next-speaker check: side, JSON schema", method: "POST",
			target: "/v1beta/models/gemini-2.5-flash:generateContent", body: geminiNextSpeaker,
			want: modelapi.Request{Dialect: modelapi.Gemini, Kind: modelapi.Side, Model: "gemini-2.5-flash",
				LastUser: "Analyze *only* the content",
				Schema:   raw(`{"type":"object","properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string","enum":["user","model"]}},"required":["reasoning","next_speaker"]}`)},
		},
		{
			name: "count tokens", method: "POST", target: "/v1/messages/count_tokens", body: claudeTitle,
			want: modelapi.Request{Dialect: modelapi.Anthropic, Kind: modelapi.CountTokens},
		},
		{
			name: "gemini count tokens", method: "POST", target: "/v1beta/models/gemini-2.5-pro:countTokens", body: `{"contents":[]}`,
			want: modelapi.Request{Dialect: modelapi.Gemini, Kind: modelapi.CountTokens, Model: "gemini-2.5-pro"},
		},
		{
			name: "a probe of another path", method: "GET", target: "/v1/models",
			want: modelapi.Request{Kind: modelapi.NotFound},
		},
		{
			name: "GET on a model path is not served", method: "GET", target: "/v1/messages",
			want: modelapi.Request{Kind: modelapi.NotFound},
		},
		{
			name: "bad JSON", method: "POST", target: "/v1/messages", body: `{"messages": [`,
			want: modelapi.Request{Dialect: modelapi.Anthropic, Kind: modelapi.BadRequest},
			err:  "anthropic request body: unexpected end of JSON input",
		},
		{
			name: "empty body", method: "POST", target: "/v1/chat/completions",
			want: modelapi.Request{Dialect: modelapi.Chat, Kind: modelapi.BadRequest},
			err:  "chat request body: empty",
		},
		{
			name: "gemini body without contents", method: "POST", target: "/v1beta/models/m:generateContent", body: `{}`,
			want: modelapi.Request{Dialect: modelapi.Gemini, Kind: modelapi.BadRequest, Model: "m"},
			err:  "gemini request body: no contents",
		},
		{
			name: "responses input that is a string", method: "POST", target: "/v1/responses",
			body: `{"model":"m","input":"hello","tools":[{"type":"local_shell"}]}`,
			want: modelapi.Request{Dialect: modelapi.Responses, Kind: modelapi.Main, Model: "m", Tools: []string{"local_shell"}, LastUser: "hello"},
		},
		{
			name: "arguments that are not a JSON object are kept raw and noted", method: "POST", target: "/v1/chat/completions",
			body: `{"messages":[{"role":"assistant","tool_calls":[{"id":"c","function":{"name":"f","arguments":"[1,"}}]},{"role":"critic","content":"x"}],"tools":[{"type":"function","function":{"name":"f"}}]}`,
			want: modelapi.Request{Dialect: modelapi.Chat, Kind: modelapi.Main, Tools: []string{"f"},
				Calls: []modelapi.Call{{ID: "c", Name: "f", Args: raw(`{"raw":"[1,"}`)}},
				Unknown: []string{`messages[0].tool_calls[0]: arguments are not a JSON object: kept as {"raw": …}`,
					`messages[1]: role "critic"`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := modelapi.ParseRequest(tt.method, tt.target, []byte(tt.body))
			want := tt.want
			want.Method, want.Path = tt.method, strings.SplitN(tt.target, "?", 2)[0]
			if want.Query == "" && strings.Contains(tt.target, "?") {
				want.Query = strings.SplitN(tt.target, "?", 2)[1]
			}
			if diff := cmp.Diff(want, *got, cmpopts.IgnoreFields(modelapi.Request{}, "Body", "Err"), cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("request (-want +got):\n%s", diff)
			}
			gotErr := ""
			if got.Err != nil {
				gotErr = got.Err.Error()
			}
			if gotErr != tt.err {
				t.Errorf("Err = %q, want %q", gotErr, tt.err)
			}
		})
	}
}

func TestSampleJSON(t *testing.T) {
	tests := []struct {
		name, schema, want string
	}{
		{"gemini next speaker", `{"type":"object","properties":{"reasoning":{"type":"string"},"next_speaker":{"type":"string","enum":["user","model"]}},"required":["reasoning","next_speaker"]}`,
			`{"next_speaker":"user","reasoning":"toolsim"}`},
		{"gemini OpenAPI types, no required: all properties", `{"type":"OBJECT","properties":{"n":{"type":"NUMBER"},"ok":{"type":"BOOLEAN"},"xs":{"type":"ARRAY","items":{"type":"STRING"}}}}`,
			`{"n":0,"ok":false,"xs":[]}`},
		{"nested, const, anyOf, minItems, nullable type list", `{"type":"object","required":["a","b","c","d","e"],"properties":{"a":{"const":7},"b":{"anyOf":[{"type":"integer","minimum":3},{"type":"string"}]},"c":{"type":"array","minItems":2,"items":{"type":"object","required":["k"],"properties":{"k":{"type":["null","string"],"maxLength":3}}}},"d":{"type":"null"}}}`,
			`{"a":7,"b":3,"c":[{"k":"too"},{"k":"too"}],"d":null,"e":"toolsim"}`},
		{"gemini routing classifier: an integer score is 1", `{"type":"OBJECT","properties":{"complexity_reasoning":{"type":"STRING"},"complexity_score":{"type":"INTEGER"}},"required":["complexity_reasoning","complexity_score"]}`,
			`{"complexity_reasoning":"toolsim","complexity_score":1}`},
		{"gemini loop detection: a number confidence is 0", `{"type":"object","properties":{"unproductive_state_analysis":{"type":"string"},"unproductive_state_confidence":{"type":"number"}},"required":["unproductive_state_analysis","unproductive_state_confidence"]}`,
			`{"unproductive_state_analysis":"toolsim","unproductive_state_confidence":0}`},
		{"bounds", `{"type":"object","required":["i","n"],"properties":{"i":{"type":"integer","maximum":0},"n":{"type":"number","minimum":0.5}}}`,
			`{"i":0,"n":0.5}`},
		{"empty schema", `{}`, `{}`},
		{"not JSON", `{`, `{}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := string(modelapi.SampleJSON(raw(tt.schema))); got != tt.want {
				t.Errorf("SampleJSON = %s, want %s", got, tt.want)
			}
		})
	}
}
