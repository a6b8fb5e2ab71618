// Package openaichat imports one OpenAI Chat Completions SSE stream
// (POST /v1/chat/completions with "stream": true) as a canonical toolsim
// trace. Format name: openai-chat-sse. The framing and the mapping live in
// formats/internal/sse, shared with the vcr-cassette importer.
//
// Detection: an SSE stream (first line a field or comment) whose first
// data object has "object": "chat.completion.chunk" (or, without "object",
// a "choices" list).
//
// # Mapping
//
//	source                                        canonical
//	first chunk                                   turn_start{assistant}; batch = chunk id
//	delta.content, delta.refusal                  text
//	delta.reasoning_content, delta.reasoning      thinking (OpenAI-compatible providers)
//	delta.tool_calls[] (index, id, function)      a call per index: id and function.name from
//	                                                its first delta, arguments concatenated
//	finish_reason (any)                           tool_start{id, name, args, batch} for each
//	                                                call in index order; then turn_end unless
//	                                                calls were issued
//	finish_reason length / content_filter         also an error notice "finish_reason …: the
//	                                                response was cut short"
//	{"error": {...}} chunk, "event: error"        error{message}
//	data: [DONE]                                  ends the response if no finish_reason came
//
// The protocol has no per-call end, so calls complete at finish_reason (or
// [DONE]): all tool_starts of a response come together, after its text. A
// call's args are its joined arguments parsed as a JSON object (empty means
// {}); if they do not parse they are kept as {"raw": "..."} and reported.
// Results come back in the next request (role "tool", tool_call_id), not in
// the stream: the calls stay live and no turn_end is emitted, so the
// replay shows them running — what a UI showed at that point.
//
// # Clock
//
// The stream has no timestamps: the synthetic clock (1 ms per event).
//
// # Ignored (counted in header meta "ignored")
//
// The usage chunk (empty choices with usage), empty chunks, data: [DONE],
// SSE comments, id/retry-only blocks.
//
// # Problems (with line numbers)
//
// An "event:" type other than error; data that is not JSON; an object
// other than chat.completion.chunk; choices other than 0 (n > 1; reported
// once per choice); a legacy function_call delta (no id); a second id or
// name for a call index; a call with no id; chunks after finish_reason; a
// stream cut off (neither finish_reason nor [DONE]: pending calls are
// emitted, args raw if incomplete).
//
// Framing problems, as for every SSE importer: unknown SSE fields, an
// event type without a data field, lines over the importer size limit.
package openaichat
