package timeline_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/timeline"
)

func TestDecodeErrorsNameTheMember(t *testing.T) {
	const head = `{"format":"toolsim-timeline/1","items":`
	tests := []struct{ name, in, want string }{
		{"missing status", head + `[{"kind":"tool","tool":{"id":"a","name":"g"}}]}`, "items[0].tool.status: missing required member"},
		{"wrong type", head + `[{"kind":"tool"},{"kind":"tool","tool":{"id":"a","name":"g","status":3}}]}`, "items[1].tool.status: want a string, got a number"},
		{"case", head + `[],"Now":3}`, `member "Now": names are case-sensitive, want "now"`},
		{"twice", head + `[],"now":3,"now":4}`, "now: appears twice"},
		{"null element", head + `[null]}`, "items[0]: null is not allowed in this list"},
		{"fraction", head + `[],"now":1.5}`, "now: want an integer, got a number with a fraction or exponent"},
		{"range", head + `[],"now":9223372036854775808}`, "now: integer 9223372036854775808 out of range"},
		{"format", `{"format":"toolsim-timeline/9","items":[]}`, `format: format "toolsim-timeline/9", want "toolsim-timeline/1"`},
		{"no items", `{"format":"toolsim-timeline/1"}`, "items: missing required member"},
		{"utf8", head + "[{\"kind\":\"\xff\"}]}", "items[0].kind: invalid UTF-8 in string"},
		{"trailing", head + `[]} x`, "unexpected data after the value"},
		{"child", head + `[{"kind":"tool","tool":{"id":"a","name":"g","status":"ok","children":[{"kind":"tool","tool":{"id":"b","name":"g","status":"ok","delegation":{"steps":[{"agent":1}]}}}]}}]}`,
			"items[0].tool.children[0].tool.delegation.steps[0].agent: want a string, got a number"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := timeline.Decode([]byte(tt.in))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

var benchJSON = func() []byte {
	tl := &timeline.Timeline{Now: 99}
	for i := range 50 {
		tl.Items = append(tl.Items, &timeline.Item{Kind: timeline.ItemToolGroup, Batch: "m", Tools: []*timeline.Tool{
			{ID: "t" + string(rune('a'+i%26)), Name: "grep", Status: timeline.StatusOK, StartT: int64(i), EndT: int64(i + 3), DurationMS: 3, Summary: "src/"},
			{ID: "u", Name: "read", Status: timeline.StatusRunning, StartT: int64(i), Output: "line one\nline two"},
		}})
	}
	return timeline.AppendJSON(nil, tl)
}()

func BenchmarkDecode(b *testing.B) {
	b.SetBytes(int64(len(benchJSON)))
	var d timeline.Decoder
	for b.Loop() {
		if _, err := d.Timeline(benchJSON); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeStdlib(b *testing.B) {
	b.SetBytes(int64(len(benchJSON)))
	type ref struct {
		Diagnostics []timeline.Diagnostic `json:"diagnostics"`
		Format      string                `json:"format"`
		Items       []*timeline.Item      `json:"items"`
		Now         int64                 `json:"now"`
	}
	for b.Loop() {
		var r ref
		if err := json.Unmarshal(benchJSON, &r); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncode(b *testing.B) {
	tl, _ := timeline.Decode(benchJSON)
	b.SetBytes(int64(len(benchJSON)))
	var buf []byte
	for b.Loop() {
		buf = timeline.AppendJSON(buf[:0], tl)
	}
}

func TestDelta(t *testing.T) {
	var d timeline.Decoder
	delta, err := d.Delta([]byte(`{"len":3,"items":{"2":{"kind":"user","text":"x"},"0":{"kind":"separator"}},"now":9}`))
	if err != nil || delta.Len != 3 || len(delta.Items) != 2 || delta.Items[0].Index != 2 || delta.Items[1].Item.Kind != timeline.ItemSeparator || !delta.HasNow || delta.Now != 9 {
		t.Fatalf("%+v %v", delta, err)
	}
	for in, want := range map[string]string{
		`{"items":{}}`: "len: missing required member",
		`{"len":1,"items":{"1":{"kind":"user"}}}`:                     "items: index 1 is not below len 1",
		`{"len":2,"items":{"1":{"kind":"user"},"1":{"kind":"user"}}}`: "items: index 1 appears twice",
		`{"len":2,"items":{"-1":{"kind":"user"}}}`:                    `items: key "-1" is not an item index`,
		`{"len":2,"items":{"0":{"text":"x"}}}`:                        "items[0].kind: missing required member",
	} {
		if _, err := d.Delta([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %q", in, err, want)
		}
	}
}
