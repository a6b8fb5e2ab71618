// Package modelapi is the model API toolsim serves to a real agent app
// (Codex CLI, opencode, Claude Code, Gemini CLI) in place of OpenAI,
// Anthropic or Google: an HTTP server on 127.0.0.1 that records every
// request and lets toolsim decide every model response, in the four
// streaming dialects those apps speak.
//
// # Use
//
//	s, err := modelapi.Start(modelapi.Options{})
//	defer s.Close()
//	// point the app at s.URL(): Codex base_url = URL+"/v1" (wire_api
//	// "responses"), opencode baseURL = URL+"/v1" (@ai-sdk/openai-compatible),
//	// ANTHROPIC_BASE_URL = URL, GOOGLE_GEMINI_BASE_URL = URL
//	p, err := s.Next(30 * time.Second) // the app's next main request
//	// p.Request: what the app offers and carries back (tools, calls, results, last user text)
//	err = p.Respond(modelapi.Reply{Text: "Reading it.",
//		Calls: []modelapi.Call{{ID: "call_1", Name: "read", Args: json.RawMessage(`{"path":"a.go"}`)}}})
//	// the app runs the tool; its next request carries the result: s.Next again
//
// A main request blocks until Respond (or Options.Timeout, 60 s by
// default: HTTP 500, recorded as timed out). RespondPartial streams text
// first and keeps the stream open, so a test can look at the app while
// the model "types"; Respond ends it. If the app cancels the request
// first, Respond fails with ErrGone (errors.Is) and the request stays
// recorded with Gone set. Requests returns every request so far, main
// and side, as copies; Reset forgets them between scenarios (and drops
// requests Next has not returned). The server is safe for concurrent
// use: apps send side requests in parallel with main ones.
//
// # Dialects and paths
//
// The dialect follows from the path (any prefix before it; POST only):
//
//	…/responses                        Responses: OpenAI Responses API, SSE (Codex CLI)
//	…/chat/completions                 Chat: OpenAI Chat Completions, SSE (opencode)
//	…/messages                         Anthropic: Messages API, SSE (Claude Code)
//	…/messages/count_tokens            Anthropic token count: {"input_tokens": N}
//	…/models/M:streamGenerateContent   Gemini, SSE with alt=sse, else a JSON array (Gemini CLI)
//	…/models/M:generateContent         Gemini, one JSON response
//	…/models/M:countTokens             Gemini token count: {"totalTokens": N}
//
// Anything else (Claude Code's HEAD /api/hello, a GET /v1/models) is
// answered 404 with a JSON error and recorded (Kind NotFound); a body
// that does not parse is answered 400 in the dialect's error shape and
// recorded with Err (Kind BadRequest), never dropped. A request with
// "stream" false (Gemini: generateContent) gets the whole JSON response
// instead of a stream. Bodies may be gzip-encoded.
//
// # Side requests
//
// Apps make helper calls besides the conversation: Codex's title request
// (tools: []), Claude Code's session title and other tool-free helpers, opencode's
// title, Gemini CLI's routing classifier, next-speaker and loop checks.
// A request that offers no tools is a side request (Kind Side): the
// server answers it at once, without the controller, and records it.
// The answer is the text "toolsim", or, when the request asks for JSON
// (Responses text.format, Chat response_format, Anthropic output_format
// or output_config.format, Gemini generationConfig responseJsonSchema /
// responseSchema / responseMimeType application/json), SampleJSON of its
// schema: for Gemini CLI's next-speaker check
// {"next_speaker":"user","reasoning":"toolsim"}. A request that offers
// only a provider tool still offers a tool: Gemini CLI's
// google_web_search asks with tools [{"googleSearch": {}}], a main
// request the controller answers.
//
// # Reply on the wire
//
// A Reply is one model response: its text, then its calls. Response ids
// are numbered by arrival ("resp_toolsim_N", "chatcmpl-toolsim-N",
// "msg_toolsim_N", "toolsim-N" for request N); a call without an ID gets
// one from Reply.WithIDs (Gemini calls may go without). Usage reports the
// request size / 4 as input tokens and the reply's size / 4 as output
// tokens; the creation time is fixed.
//
//	Reply        Responses                 Chat                         Anthropic                    Gemini
//	(start)      response.created,         chunk delta {role,           message_start (usage),      -
//	             response.in_progress      content: ""}                 ping
//	Text         message item: added,      chunk delta {content}        text block: start,          chunk parts [{text}]
//	             content_part.added,                                    text_delta, stop
//	             output_text.delta, .done,
//	             content_part.done, done
//	Call         function_call item:       tool_calls delta {index,     tool_use block: start       part {functionCall:
//	             added, arguments .delta   id, type, function.name},    (input {}), one              {id?, name, args}}
//	             and .done, done;          then {index,                 input_json_delta, stop
//	             "namespace" if set        function.arguments}
//	(end)        response.completed with   finish_reason tool_calls     message_delta stop_reason   finishReason STOP,
//	             output and usage          or stop; usage chunk;        tool_use or end_turn,       usageMetadata
//	                                       data: [DONE]                 usage; message_stop
//	Status ≥ 400 {"error": {message,       {"error": {message, type,    {"type": "error", "error":  {"error": {code,
//	             type, param, code}}       param, code}}                {type, message}}            message, status}}
//
// Call.Namespace is for Codex: it offers MCP tools inside a namespace
// ({"type": "namespace", "name": "mcp__server", "tools": [...]}) and runs
// a function_call only when it names the bare tool and carries
// "namespace": "mcp__server"; the other dialects have no namespaces
// (Claude Code's MCP tools are plain names such as mcp__server__tool).
// Encode and EncodeJSON write the same bodies without a server, for
// tests and fixtures.
//
// # What a request's parse extracts
//
// ParseRequest reads each dialect's history:
//
//	                 Responses input         Chat messages            Anthropic messages          Gemini contents
//	Calls            function_call (call_id,  assistant tool_calls     assistant tool_use          model functionCall (id,
//	                 name, namespace),        (id, function)           (id, name, input)           else "gemini:K.J")
//	                 custom_tool_call,
//	                 local_shell_call
//	Results          *_call_output            role tool                user tool_result            user functionResponse,
//	                 (call_id, output)        (tool_call_id)           (tool_use_id, is_error)     paired with the calls
//	                                                                                               of the content before
//	LastUser         message role user        role user                role user text              role user text
//	Tools            tools[].name, a          tools[].function.name    tools[].name (else type)    functionDeclarations
//	                 namespace's as NS.NAME                                                        names, other tools' keys
//
// LastUser skips the context apps wrap in user messages
// (<system-reminder>, <session_context>, <environment_context>,
// <user_instructions>), so it is what the user typed. A Result names
// its call's tool when the request holds the call (else
// Name is "" — a result whose call was compacted away). Gemini calls
// without an id get "gemini:K.J", K the index of their model content and
// J their place in it: formats/vcr gives them the same ids, and they
// stay the same in every later request. Shapes the parser does not know
// are listed in Request.Unknown rather than dropped silently.
//
// # Guarantee
//
// Encode is deterministic (the same arguments give the same bytes), and
// toolsim's own importers read what it writes back as the reply: the
// openai-responses-sse, openai-chat-sse and anthropic-sse importers, and
// formats/vcr for Gemini streams and for every dialect's whole JSON
// response, give turn_start{assistant}, the text, a tool_start{id, name,
// args, batch = response id} per call, and turn_end when there are no
// calls — with no import problem (roundtrip_test.go checks it on random
// replies).
package modelapi
