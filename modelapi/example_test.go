package modelapi_test

import (
	"encoding/json"
	"os"

	"github.com/toolsim/toolsim/modelapi"
)

// Encode writes the stream an app reads: here a Chat Completions reply
// with text and one call, whose ID Reply.WithIDs derives.
func ExampleEncode() {
	r := modelapi.Reply{Text: "Reading.", Calls: []modelapi.Call{{Name: "read", Args: json.RawMessage(`{"path": "a.go"}`)}}}
	if err := modelapi.Encode(os.Stdout, modelapi.Chat, r, "chatcmpl-1"); err != nil {
		panic(err)
	}
	// Output:
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"toolsim","choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"toolsim","choices":[{"index":0,"delta":{"content":"Reading."},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"toolsim","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_chatcmpl1_0","type":"function","function":{"name":"read","arguments":""}}]},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"toolsim","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"path\":\"a.go\"}"}}]},"logprobs":null,"finish_reason":null}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"toolsim","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"tool_calls"}]}
	//
	// data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1767225600,"model":"toolsim","choices":[],"usage":{"prompt_tokens":0,"completion_tokens":8,"total_tokens":8}}
	//
	// data: [DONE]
}

// SampleJSON is how a side request that asks for JSON is answered.
func ExampleSampleJSON() {
	schema := json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)
	os.Stdout.Write(modelapi.SampleJSON(schema))
	// Output: {"title":"toolsim"}
}
