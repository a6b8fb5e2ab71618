package sse_test

import (
	"bytes"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/internal/sse"
	"github.com/toolsim/toolsim/importer"
)

// FuzzDecode feeds arbitrary bytes to every dialect: no panic, and every
// event emitted is valid canonical trace data that survives a round trip.
// go test ./importer/sse -run '^$' -fuzz FuzzDecode -fuzztime 30s
func FuzzDecode(f *testing.F) {
	f.Add([]byte("event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\"}}\n\nevent: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"n\",\"input\":{}}}\n\nevent: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"a\\\":1}\"}}\n\n"))
	f.Add([]byte("data: {\"id\":\"c\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"x\",\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}}]}\n\ndata: [DONE]\n\n"))
	f.Add([]byte("event: response.created\ndata: {\"type\":\"response.created\",\"response\":{\"id\":\"r\"}}\n\nevent: response.output_item.added\ndata: {\"type\":\"response.output_item.added\",\"item\":{\"id\":\"i\",\"type\":\"function_call\",\"call_id\":\"c\",\"name\":\"f\"}}\n\n"))
	f.Add([]byte(": c\r\nid: 1\rretry: x\n\ndata\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, d := range []sse.Dialect{sse.Anthropic, sse.OpenAIChat, sse.OpenAIResponses} {
			b := importer.NewBuilder("fuzz", importer.Options{})
			if err := sse.Decode(bytes.NewReader(in), d, sse.NewTurn(b)); err != nil {
				t.Fatalf("%s: %v", d, err)
			}
			var out []byte
			for i := range b.Result().Events {
				ev := &b.Result().Events[i]
				if err := event.Validate(ev); err != nil {
					t.Fatalf("%s: event %d invalid: %v", d, i, err)
				}
				out = event.AppendEvent(out, ev)
				out = append(out, '\n')
			}
			if len(out) > 0 {
				if _, _, err := event.ReadAll(bytes.NewReader(out), event.ReaderOptions{}); err != nil {
					t.Fatalf("%s: round trip: %v\n%s", d, err, out)
				}
			}
			_ = sse.DetectDialect(in)
		}
	})
}
