// Package vcr imports go-vcr cassettes (YAML) that recorded an agent
// talking to a model API — each interaction a request and its response —
// as one complete canonical toolsim trace. Format name: vcr-cassette.
//
// Detection: YAML with a top-level "interactions:" list whose entries hold
// a "request:" mapping ("version:" is read but not required).
//
// # Mapping
//
// Interactions are read in order. Request bodies may be Anthropic Messages
// or OpenAI Chat ("messages"), OpenAI Responses ("input") or the Gemini
// API ("contents", see below); response
// bodies an SSE stream of any of the three dialects (detected from the
// body — or from the request URL when its events do not tell, as with a
// lone error event — and decoded by formats/internal/sse exactly as the
// anthropic-sse, openai-chat-sse and openai-responses-sse importers do), a
// whole JSON
// response (Anthropic message, chat.completion, response), or an HTTP
// error.
//
//	source                                             canonical
//	request: messages it adds (see below)
//	  user text (string, text / input_text blocks)     turn_start{user}, user, turn_end (closing an
//	                                                     open assistant turn first)
//	  user text next to tool results                   user, inside the open assistant turn
//	  Anthropic tool_result (tool_use_id, is_error)    tool_done{id, ok = !is_error, output | error}
//	  OpenAI role "tool" (tool_call_id)                tool_done{id, ok: true, output}
//	  Responses function_call_output (call_id),        tool_done{id, ok: true, output}
//	    other *_output items
//	  assistant messages / function_call items the     an assistant turn: text, tool_start (no batch)
//	    cassette has no response for (history)
//	response: SSE or JSON model response               as formats/internal/sse: text, thinking, tool_start
//	                                                     (batch = message/response id); turn_end at
//	                                                     the end of a response with no tool calls
//	response: HTTP status >= 400                       error{"HTTP 529: overloaded_error: …"}
//
// Which messages are new (by content, not by position): every message is
// reduced to a key — its role, text, call ids and names, result ids,
// status and output — so that formatting the client changes from request
// to request (cache_control marks, a string versus text blocks, argument
// spacing) does not matter; a top-level system prompt ("system",
// "instructions", "systemInstruction") is a first, never-mapped message.
// A request continues the conversation whose latest request shares the
// longest common prefix of keys with it; its new messages are the ones
// after that prefix, past the previous response echoed back (already
// mapped from the response). The first request of a conversation is all
// new (system messages counted as ignored), so a cassette recorded
// mid-conversation replays its history. A request that does not repeat
// the whole previous one (history rewritten, compacted) is reported; the
// messages after the longer of the common prefix and its last assistant
// message are taken as new. A retry after a failed response adds nothing.
// A Responses request with previous_response_id holds only new items and
// continues the conversation of the request before it.
//
// # Side conversations
//
// A request that shares not even its first message with any earlier
// conversation starts a new one: agents send side requests such as a
// title request ("Generate a concise title…", with its own system prompt)
// next to the session. The main conversation is the one with the most
// requests (then the most messages in its latest request, then the one
// that started last: a title request comes before the prompt it names).
// Only the main conversation (and interactions that are not model
// requests, reported as before) is mapped; each request of a side
// conversation is counted in meta "ignored" as "side conversation
// request". With importer.Options.All (`--all` on import and replay),
// side conversations are mapped after the main one, in order: their user
// text starts "[side conversation N] " and every event carries the unknown
// field "side_conversation": N. (An assistant turn of the main
// conversation still open at its end is then closed by the first side
// turn.)
//
// # Gemini API
//
// A request with "contents" (generateContent, streamGenerateContent; Google
// AI and Vertex AI) is a Gemini request: contents[] {role user|model,
// parts}; parts text (thought: true = thinking, not mapped in requests),
// functionCall {name, args}, functionResponse {name, response}; inline
// data and code execution parts are counted as ignored. Its response is
// an SSE stream of GenerateContentResponse chunks (alt=sse), a JSON array
// of them, or one; candidate 0's parts map to text, thinking and
// tool_start (batch = responseId); finishReason STOP ends the turn unless
// calls await results, any other reason adds a notice that the response
// was cut short; an error body is an error event; a response without a
// finishReason is reported as cut off.
//
// Ids: the model gives function calls no ids (when a newer model sends
// functionCall.id, it is used as is). A call gets "gemini:K.J": K is the
// index in contents[] of the model content that holds it, J its place
// among that content's function calls (0-based). K is known when the
// response arrives (the number of contents its request held) and stays
// the same in every later request of the conversation that repeats the
// content, so a call and its result meet on one id. A functionResponse
// answers a call of the model content just before it: the one with its
// id if both have one, else the first unanswered call with its name, else
// the first unanswered call; one with no call left is reported and gets
// "gemini:K.rN".
//
// Tool output is the result content as text (a string, or text blocks
// joined by newlines with other blocks shown as [image] etc.); a failed
// result (is_error) puts it in error instead. A call still unanswered at
// the end of the cassette stays live, as with a lone stream.
//
// # Clock
//
// go-vcr records no timestamps: the synthetic clock (1 ms per event).
// When an interaction has "recorded_at" (RFC 3339 or RFC 1123), or else a
// response "Date" header (second resolution), all of its events are at that
// time, so tool durations span the time between the call's response and
// the request that carried its result.
//
// # Header meta
//
// "interactions" (count), "cassette_version", and "ignored": the SSE
// events formats/internal/sse counts, system messages, and blocks the trace has
// no kind for (thinking and image blocks in requests, ...).
//
// # Problems and limits
//
// Problems name the interaction and its line: a request that is not a
// model request (no messages/input/contents, not JSON), a message or input item of
// an unknown role or type, an empty response body, a body that is neither
// SSE nor a model response; inside SSE bodies, the stream problems of
// formats/internal/sse with their cassette line numbers (exact for block scalars,
// the usual `body: |`; the body's first line for quoted ones). Only
// choice 0 of chat responses is mapped. Bodies stored compressed are not
// inflated.
package vcr
