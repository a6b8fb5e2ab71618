// Package anthropicsse imports one Anthropic Messages SSE stream (a
// response body of POST /v1/messages with "stream": true) as a canonical
// toolsim trace. Format name: anthropic-sse. The framing and the mapping
// live in formats/internal/sse, shared with the vcr-cassette importer.
//
// Detection: an SSE stream (first line a field or comment) whose first
// Anthropic-specific event type is message_start, message_delta,
// message_stop or content_block_*.
//
// # Mapping
//
//	source                                          canonical
//	message_start                                   turn_start{assistant}; batch = message.id
//	content_block_start text / thinking             text / thinking (when non-empty)
//	content_block_delta text_delta                  text
//	content_block_delta thinking_delta              thinking
//	content_block_start tool_use (index, id, name)  a call: its input_json_delta
//	content_block_delta input_json_delta            partial_json joined by block index
//	content_block_stop (tool block)                 tool_start{id, name, args, batch}
//	server_tool_use + *_tool_result blocks          tool_start + tool_done (run by Anthropic)
//	message_delta stop_reason max_tokens, refusal,  error notice "stop_reason …: the response
//	  model_context_window_exceeded                   was cut short"
//	message_stop                                    turn_end, unless tool calls were issued
//	error                                           error{message: "type: message"}
//
// A tool call's args are the joined partial_json parsed as a JSON object
// (no deltas: the start's input, normally {}); if it does not parse it is
// kept as {"raw": "..."} and reported. Results are not in the stream (the
// next request carries them as tool_result blocks): the calls stay live and
// message_stop emits no turn_end, so the replay shows the calls running —
// what a UI showed at that point. Use the vcr-cassette importer for a
// recording that includes the next request.
//
// # Clock
//
// The stream has no timestamps: the synthetic clock (1 ms per event).
//
// # Ignored (counted in header meta "ignored")
//
// ping, message_delta without a cut-short stop reason, content_block_stop
// of text and thinking blocks, signature_delta, citations_delta,
// redacted_thinking blocks, SSE comments, id/retry-only blocks.
//
// # Problems (with line numbers)
//
// Unknown event, delta or content block types; data that is not JSON; an
// event field that disagrees with the data's type; input_json_delta for a
// block that is not an open tool_use; content before message_start; a
// stream cut off (no message_stop; a tool block never stopped — emitted,
// args raw if incomplete); a new message_start before the previous
// message_stop.
//
// Framing problems, as for every SSE importer: unknown SSE fields, an
// event type without a data field, lines over the importer size limit.
package anthropicsse
