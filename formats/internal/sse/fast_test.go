package sse

import (
	"testing"

	"github.com/toolsim/toolsim/internal/jsonscan/jsonscantest"
)

// The fast decoders must agree with encoding/json wherever they answer.

var fastSeeds = []string{
	`{"type":"message_start","message":{"id":"msg_1","usage":{"input_tokens":3}}}`,
	`{"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"tu_1","name":"Read","input":{}}}`,
	`{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"p\":\"a\u00e9\\n\"}"}}`,
	`{"type":"content_block_start","index":2,"content_block":{"type":"web_search_tool_result","tool_use_id":"s1","content":[{"type":"text","text":"x"}],"is_error":null}}`,
	`{"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":null}`,
	`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	`{"Type":"ping"}`, `{"type":"ping","type":"x"}`, `{"index":1.5}`, `{"index":null,"delta":null}`, `null`, `[1]`,
	`[{"type":"text","text":"a"},null,{"type":"tool_use","id":"t","name":"n","input":{"a":1}}]`, `[]`, `[{"is_error":1}]`,
	`{"id":"c1","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant","content":"Hi","tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"ls","arguments":"{\"a\""}}]},"finish_reason":null}],"usage":null}`,
	`{"choices":[null,{"index":1.0}],"error":{"message":"m","code":5}}`, `{"choices":[{"delta":null,"finish_reason":"stop"}]}`, `{"choices":[{"delta":{"tool_calls":[null,{"function":null}]}}]}`,
	`{"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","status":"in_progress","arguments":"","call_id":"call_1","name":"ls"}}`,
	`{"type":"response.function_call_arguments.delta","item_id":"fc_1","delta":"{\"a\""}`, `{"type":"response.created","response":{"id":"r1","status":"in_progress","error":null,"incomplete_details":null}}`,
	`{"type":"response.failed","response":{"id":"r1","error":{"code":"x","message":"m"}}}`, `{"type":"error","code":null,"message":"m","item":null,"arguments":"x"}`,
	`{"index":"1"}`, `{"message":{"id":1}}`, "{\"type\":\"\xff\"}", `{"typ\u0065":"x"}`, ` {"index": -0 } `,
}

func FuzzFastDecoders(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		jsonscantest.Agree(t, data, withScratch(fastAnthropic))
		jsonscantest.Agree(t, data, withScratch(fastChatChunk))
		jsonscantest.Agree(t, data, withScratch(fastResponsesEvent))
		jsonscantest.Agree(t, data, func(b []byte, v *[]ContentBlock) (ok bool) {
			*v, ok = fastContentBlocks(b)
			return ok
		})
	})
}

func TestFastDecodersAgree(t *testing.T) {
	for _, s := range fastSeeds {
		jsonscantest.Agree(t, []byte(s), withScratch(fastAnthropic))
		jsonscantest.Agree(t, []byte(s), withScratch(fastChatChunk))
		jsonscantest.Agree(t, []byte(s), withScratch(fastResponsesEvent))
	}
}

// withScratch gives a fast decoder a scratch buffer of its own.
func withScratch[T any](fast func([]byte, *T, *scratch) bool) func([]byte, *T) bool {
	var buf scratch
	return func(data []byte, v *T) bool { return fast(data, v, &buf) }
}
