// Package openairesponses imports one OpenAI Responses API SSE stream
// (POST /v1/responses with "stream": true) as a canonical toolsim trace.
// Format name: openai-responses-sse. The framing and the mapping live in
// formats/internal/sse, shared with the vcr-cassette importer.
//
// Detection: an SSE stream (first line a field or comment) whose first
// dialect-specific event type (the "event:" field or the data's "type")
// starts with "response.".
//
// # Mapping
//
//	source                                            canonical
//	response.created                                  turn_start{assistant}; batch = response.id
//	response.output_text.delta, refusal.delta         text
//	response.reasoning_summary_text.delta,            thinking
//	  reasoning_text.delta
//	output_item.added function_call                   a call: id = call_id (results link by it),
//	  (item id, call_id, name)                          item id kept as extra field "item_id"
//	function_call_arguments.delta (by item_id)        arguments joined
//	function_call_arguments.done                      tool_start{id, name, args, batch}; its
//	                                                    "arguments" win over the joined deltas
//	output_item.done function_call (no .done seen)    tool_start from the item's arguments
//	custom_tool_call (+ custom_tool_call_input.*)     the same; args = {"input": "<free text>"}
//	web_search_call, file_search_call, mcp_call, ...  tool_start at added, tool_done at done
//	                                                    (run by OpenAI; status failed → failed)
//	local_shell_call, computer_call, other *_call     tool_start at done, args = action
//	response.completed                                turn_end, unless client calls were issued
//	response.incomplete                               error notice "response incomplete: reason"
//	error, response.failed                            error{message} (once if both say the same)
//
// A call's args are parsed as a JSON object (empty means {}); otherwise
// kept as {"raw": "..."} and reported. Results come back in the next
// request as function_call_output items with call_id, not in the stream:
// the calls stay live and no turn_end is emitted, so the replay shows them
// running — what a UI showed at that point.
//
// # Clock
//
// The stream has no timestamps: the synthetic clock (1 ms per event).
//
// # Ignored (counted in header meta "ignored")
//
// response.queued, response.in_progress, output_item.added/done of message
// and reasoning items (and done of calls already emitted),
// content_part.added/done, output_text.done, refusal.done,
// output_text.annotation.added, reasoning_summary_part.added/done,
// reasoning_summary_text.done, reasoning_text.done, the progress events of
// OpenAI's own tools (response.web_search_call.*, file_search_call.*,
// code_interpreter_call.*, image_generation_call.*, mcp_call.*,
// mcp_list_tools.*), audio events, SSE comments, id/retry-only blocks.
//
// # Problems (with line numbers)
//
// Unknown event types and output item types; data that is not JSON; an
// event field that disagrees with the data's type; argument deltas for an
// item never announced; a call with no id; a stream cut off (no
// response.completed: calls whose arguments never completed are emitted,
// args raw if unparsable).
//
// Framing problems, as for every SSE importer: unknown SSE fields, an
// event type without a data field, lines over the importer size limit.
package openairesponses
