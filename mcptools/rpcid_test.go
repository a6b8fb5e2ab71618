package mcptools

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// stamped decodes body (one message or a batch) into each message's
// params._meta, nil for a message without params.
func stamped(t *testing.T, body []byte) []map[string]any {
	t.Helper()
	var raws []json.RawMessage
	if body[0] == '[' {
		if err := json.Unmarshal(body, &raws); err != nil {
			t.Fatalf("batch %s: %v", body, err)
		}
	} else {
		raws = []json.RawMessage{body}
	}
	var metas []map[string]any
	for _, raw := range raws {
		var m struct {
			Params *struct {
				Meta map[string]any `json:"_meta"`
			}
		}
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("message %s: %v", raw, err)
		}
		if m.Params == nil {
			metas = append(metas, nil)
			continue
		}
		metas = append(metas, m.Params.Meta)
	}
	return metas
}

func TestStampIDs(t *testing.T) {
	tests := []struct {
		name      string
		body      string
		wantIDs   []string
		wantMetas []map[string]any
		unchanged bool
	}{
		{
			name:      "numeric id",
			body:      `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"grep","arguments":{"call":"c1"}}}`,
			wantIDs:   []string{"7"},
			wantMetas: []map[string]any{{metaKeyID: "7"}},
		},
		{
			name:      "string id keeps progress token",
			body:      `{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"_meta":{"progressToken":3},"name":"grep"}}`,
			wantIDs:   []string{`"a-1"`},
			wantMetas: []map[string]any{{metaKeyID: `"a-1"`, "progressToken": float64(3)}},
		},
		{
			name:      "client's own stamp is overwritten",
			body:      `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"_meta":{"dev.toolsim/jsonrpc-id":"99"},"name":"grep"}}`,
			wantIDs:   []string{"8"},
			wantMetas: []map[string]any{{metaKeyID: "8"}},
		},
		{
			name: "batch",
			body: `[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"a"}},` +
				`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}},` +
				`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b","_meta":null}}]`,
			wantIDs:   []string{"1", "2"},
			wantMetas: []map[string]any{{metaKeyID: "1"}, nil, {metaKeyID: "2"}},
		},
		{name: "other method", body: `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, unchanged: true},
		{name: "response", body: `{"jsonrpc":"2.0","id":1,"result":{}}`, unchanged: true},
		{name: "not json", body: `{"jsonrpc":`, unchanged: true},
		{name: "params not an object", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1]}`, unchanged: true},
		{name: "meta not an object", body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":5}}`, unchanged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var methods []string
			out, ids := stampIDs([]byte(tt.body), func(r *jsonrpc.Request) { methods = append(methods, r.Method) })
			if tt.unchanged {
				if string(out) != tt.body || ids != nil {
					t.Errorf("stampIDs = %s, %q; want the body unchanged and no ids", out, ids)
				}
				return
			}
			if diff := cmp.Diff(tt.wantIDs, ids); diff != "" {
				t.Errorf("ids (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantMetas, stamped(t, out)); diff != "" {
				t.Errorf("_meta (-want +got):\n%s", diff)
			}
			if len(methods) == 0 {
				t.Errorf("seen was not called")
			}
		})
	}
}

func TestAnyIDText(t *testing.T) {
	tests := []struct {
		name string
		in   any
		want string
	}{
		{name: "float", in: float64(12), want: "12"},
		{name: "string", in: "x-1", want: `"x-1"`},
		{name: "json number", in: json.Number("5"), want: "5"},
		{name: "digits string stays a string", in: "5", want: `"5"`},
		{name: "nil", in: nil, want: ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := anyIDText(tt.in); got != tt.want {
				t.Errorf("anyIDText(%#v) = %q; want %q", tt.in, got, tt.want)
			}
		})
	}
}
