// Package sse is the server-sent-events toolkit the stream importers share
// (formats/anthropicsse, formats/openaichat, formats/openairesponses, and
// formats/vcr for the response bodies of a cassette). It is a parser, not
// an importer: it never detects files by name and registers nothing.
//
// # Framing
//
// [Parse] splits a stream into [Event]s by the WHATWG rules: "event:",
// "data:", "id:" and "retry:" fields; one optional space after the colon;
// a blank line dispatches; lines starting with ':' are comments (counted in
// [Stats]); several "data:" lines join with "\n"; LF, CR LF and lone CR end
// lines; a leading BOM is skipped. Where a browser would silently drop
// things, Parse keeps them visible: fields SSE does not define are listed
// in Event.Unknown with their lines, blocks without data are dispatched
// (HasData false), and an unterminated last block is dispatched with
// Unterminated set. Every event carries the line of its first field (Line)
// and of its first data field (DataLine). OpenAI's "data: [DONE]" sentinel
// is an ordinary event: [Event.Done] tells it.
//
// # Dialects
//
// [DetectDialect] names a stream's dialect from its first events, and
// [Decode] maps it onto canonical events through a [Turn], which wraps an
// importer.Builder and keeps the assistant-turn state across responses:
//
//	                      Anthropic               OpenAI Chat               OpenAI Responses
//	response begins       message_start           first chunk               response.created
//	batch                 message.id              chunk id                  response.id
//	text                  text_delta              delta.content, refusal    output_text.delta, refusal.delta
//	thinking              thinking_delta          delta.reasoning_content   reasoning_(summary_)text.delta
//	call announced        content_block_start     tool_calls[] first delta  output_item.added function_call
//	                      tool_use (id, name)     (id, function.name)       (call_id, name; item id)
//	arguments joined by   block index             tool_calls[].index        item_id
//	call complete         content_block_stop      finish_reason / [DONE]    function_call_arguments.done
//	                                                                        (else output_item.done)
//	response ends         message_stop            finish_reason             response.completed
//	failure               error event             {"error":...} chunk       error, response.failed
//	cut short (notice)    stop_reason max_tokens, finish_reason length,     response.incomplete
//	                      refusal, context window content_filter
//
// Mapping rules common to all three:
//
//   - A response opens an assistant turn (turn_start{assistant}) unless one
//     is open, and emits its text and thinking deltas as they come.
//   - A tool call becomes tool_start when its arguments are complete, with
//     batch = the response id. args is the joined argument JSON when it is
//     a JSON object (empty means {}); anything else is kept as
//     {"raw": "..."} and reported as a problem.
//   - The end marker closes the turn with turn_end only if the response
//     issued no client tool calls. A stream carries no tool results — the
//     harness's next request does — so the calls stay live: the replay
//     shows them running, which is what a UI showed at that moment.
//   - A failure emits an error event (once, when "error" is followed by
//     "response.failed" with the same message) and leaves the turn open: a
//     harness retries, and the trace may end there.
//   - Tools the provider runs itself (Anthropic server_tool_use and its
//     *_tool_result block, Responses web_search_call and kin) get
//     tool_start and tool_done from the stream and do not hold the turn.
//
// # Problems and ignored events
//
// Nothing is dropped silently. Unknown event types, unknown SSE fields,
// data that is not JSON, deltas for blocks or items never announced, a
// call with no id, and a stream cut off (no end marker; a call whose
// arguments never completed, which is still emitted) are problems with the
// line of the event's first line (data errors: the data line). Known
// events that carry nothing the trace needs — ping, usage chunks, [DONE],
// response.in_progress, *.done repeats of streamed text, signature
// deltas, comments — are counted by name in Turn.Ignored, which importers
// write to the header meta "ignored".
//
// # Clock
//
// Streams have no timestamps: Turn uses the builder's synthetic clock (one
// millisecond per event) unless Turn.Clock is set (the vcr importer sets it
// from interaction timestamps).
//
// # Limits
//
// Only choice 0 of an OpenAI Chat stream is mapped (n > 1 is reported);
// the legacy function_call delta has no id and is reported, not mapped;
// chat calls complete at finish_reason (the protocol has no per-call end),
// so all of a response's calls start together after its text. Some
// OpenAI-compatible providers send another chunk for choice 0 after its
// finish_reason (usage, or the same finish again): one that carries no
// new content is counted as ignored ("chunk after finish_reason"); one
// with text, reasoning, tool calls or a different finish_reason is
// reported and skipped.
package sse
