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
// or OpenAI Chat ("messages") or OpenAI Responses ("input"); response
// bodies an SSE stream of any of the three dialects (detected from the
// body — or from the request URL when its events do not tell, as with a
// lone error event — and decoded by importer/sse exactly as the
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
//	response: SSE or JSON model response               as importer/sse: text, thinking, tool_start
//	                                                     (batch = message/response id); turn_end at
//	                                                     the end of a response with no tool calls
//	response: HTTP status >= 400                       error{"HTTP 529: overloaded_error: …"}
//
// Which messages are new: the first request's messages are all new
// (system and developer messages are counted as ignored), so a cassette
// recorded mid-conversation replays its history. A later request repeats
// the previous request's messages, then the previous response (skipped:
// it was already mapped from the response), then the new ones — tool
// results and user prompts. A Responses request with previous_response_id
// holds only new items. A request with fewer messages than the previous
// one (history rewritten) is reported; the messages after its last
// assistant message are taken as new. A retry after a failed response
// adds nothing.
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
// events importer/sse counts, system messages, and blocks the trace has
// no kind for (thinking and image blocks in requests, ...).
//
// # Problems and limits
//
// Problems name the interaction and its line: a request that is not a
// model request (no messages/input, not JSON), a message or input item of
// an unknown role or type, an empty response body, a body that is neither
// SSE nor a model response; inside SSE bodies, the stream problems of
// importer/sse with their cassette line numbers (exact for block scalars,
// the usual `body: |`; the body's first line for quoted ones). Only
// choice 0 of chat responses is mapped. Bodies stored compressed are not
// inflated.
package vcr
