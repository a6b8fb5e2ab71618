package timeline

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// refTimeline is the top-level object as encoding/json sees it by
// reflection (Item and Tool have no methods), the reference the
// hand-written codec is checked against.
type refTimeline struct {
	Diagnostics []Diagnostic `json:"diagnostics"`
	Format      string       `json:"format"`
	Items       []*Item      `json:"items"`
	Now         int64        `json:"now"`
}

func stdMarshal(tl *Timeline) []byte {
	r := refTimeline{Diagnostics: tl.Diagnostics, Format: Format, Items: tl.Items, Now: tl.Now}
	if r.Diagnostics == nil {
		r.Diagnostics = []Diagnostic{}
	}
	if r.Items == nil {
		r.Items = []*Item{}
	}
	out, err := json.Marshal(r)
	if err != nil {
		panic(err)
	}
	return out
}

var ignoreVersion = cmpopts.IgnoreFields(Item{}, "Version")

var codecSeeds = []string{
	`{"diagnostics":[{"code":"unknown_id","id":"zz","seq":7}],"format":"toolsim-timeline/1","items":[{"interrupted":true,"kind":"assistant","text":"hi"},{"batch":"m1","kind":"tool_group","tools":[{"children":[{"kind":"tool","tool":{"duration_ms":1,"end_t":3,"id":"c","name":"read","parent":"t","start_t":2,"status":"ok"}}],"delegation":{"active_id":"1","mode":"chain","steps":[{"agent":"a","id":"1","status":"running","task":"x"}]},"id":"t","name":"task","start_t":1,"status":"running","update_seq":2},{"duration_ms":8,"end_t":9,"error":"boom","id":"u","name":"bash","output":"o","start_t":1,"status":"failed"}]},{"kind":"notice","level":"interrupted"}],"now":40}`,
	`{"format":"toolsim-timeline/1","items":[],"now":0}`,
	`{"format":"toolsim-timeline/1","items":[{"kind":"tool","tool":{"id":"a\u00e9\ud800<>&","name":"g","status":"running","meta":true,"x":[1,2.5e3,{"y":null}]}}],"diagnostics":null}`,
	` { "format" : "toolsim-timeline/1" , "items" : [ { "kind" : "user" , "text" : "\"\\\/\b\f\n\r\t" } ] , "now" : -0 } `,
	`{"format":"toolsim-timeline/1","items":[{"kind":"tool","tool":{"id":"a","name":"g","status":"ok","delegation":{"mode":"single","steps":null}}}]}`,
	`{"format":"toolsim-timeline/1","items":[],"Now":1}`,
	`{"format":"toolsim-timeline/1","items":[null]}`,
	`{"format":"toolsim-timeline/1","items":[],"now":1e3}`,
	`{"format":"toolsim-timeline/2","items":[]}`,
	`{"format":"toolsim-timeline/1","items":[],"now":1,"now":2}`,
	"{\"format\":\"toolsim-timeline/1\",\"items\":[{\"kind\":\"\xff\"}]}",
	`[]`, `{`, ``,
	`{"len":3,"items":{"2":{"kind":"user","text":"x"},"0":{"kind":"tool","tool":{"id":"a","name":"g","status":"ok"}}},"diagnostics":[{"code":"late_done","id":"a","seq":4}],"now":9}`,
	`{"len":1,"items":{"1":{"kind":"user"}}}`,
	`{"len":2,"items":{"0":{"kind":"user"},"0":{"kind":"user"}}}`,
}

// FuzzCodec checks the hand-written codec against encoding/json: whatever
// Decode accepts, encoding/json accepts and decodes to the same value;
// AppendJSON writes exactly what encoding/json writes; decode(encode(x))
// is x. The bytes are also cut into strings to build a timeline, so the
// encoder meets invalid UTF-8 and every escape.
func FuzzCodec(f *testing.F) {
	for _, s := range codecSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if tl, err := Decode(data); err == nil {
			var ref refTimeline
			if err := json.Unmarshal(data, &ref); err != nil {
				t.Fatalf("Decode accepted what encoding/json rejects (%v): %q", err, data)
			}
			want := &Timeline{Diagnostics: ref.Diagnostics, Items: ref.Items, Now: ref.Now}
			if diff := cmp.Diff(want, tl, ignoreVersion); diff != "" {
				t.Fatalf("Decode disagrees with encoding/json on %q (-std +ours):\n%s", data, diff)
			}
			checkEncode(t, tl)
		}
		checkEncode(t, built(data))
		var d Decoder
		if delta, err := d.Delta(data); err == nil {
			for _, di := range delta.Items {
				if di.Index < 0 || di.Index >= delta.Len || di.Item == nil {
					t.Fatalf("delta accepted with item %d of len %d: %q", di.Index, delta.Len, data)
				}
			}
			checkDeltaRaw(t, data, delta)
		}
	})
}

// checkDeltaRaw: whatever Delta accepts, DeltaRaw accepts with the same
// members, and each raw item decodes (Decoder.Item) to Delta's item.
func checkDeltaRaw(t *testing.T, data []byte, delta *Delta) {
	t.Helper()
	var d Decoder
	raw, err := d.DeltaRaw(data)
	if err != nil {
		t.Fatalf("Delta accepts what DeltaRaw rejects (%v): %q", err, data)
	}
	if raw.Len != delta.Len || raw.Now != delta.Now || raw.HasNow != delta.HasNow || len(raw.Items) != len(delta.Items) ||
		!cmp.Equal(raw.Diagnostics, delta.Diagnostics) {
		t.Fatalf("DeltaRaw's members differ from Delta's on %q", data)
	}
	checked, err := d.DeltaRawChecked(data) // data is well-formed: Delta took it
	if err != nil || !cmp.Equal(raw, checked) {
		t.Fatalf("DeltaRawChecked differs from DeltaRaw on %q (%v):\n%s", data, err, cmp.Diff(raw, checked))
	}
	for k, ri := range raw.Items {
		it, err := d.Item(ri.JSON)
		if err != nil || ri.Index != delta.Items[k].Index {
			t.Fatalf("raw item %d (%q, index %d) does not decode as Delta's (%v)", k, ri.JSON, ri.Index, err)
		}
		if diff := cmp.Diff(delta.Items[k].Item, it, ignoreVersion); diff != "" {
			t.Fatalf("raw item %d of %q (-Delta +Item):\n%s", k, data, diff)
		}
	}
}

// checkEncode: AppendJSON is encoding/json's output, and decodes back to
// what encoding/json decodes from it.
func checkEncode(t *testing.T, tl *Timeline) {
	t.Helper()
	enc := AppendJSON(nil, tl)
	if std := stdMarshal(tl); !bytes.Equal(enc, std) {
		t.Fatalf("AppendJSON differs from encoding/json:\nours %s\nstd  %s", enc, std)
	}
	back, err := Decode(enc)
	if err != nil {
		t.Fatalf("own encoding does not decode: %v\n%s", err, enc)
	}
	var ref refTimeline
	if err := json.Unmarshal(enc, &ref); err != nil {
		t.Fatal(err)
	}
	want := &Timeline{Diagnostics: ref.Diagnostics, Items: ref.Items, Now: ref.Now}
	if diff := cmp.Diff(want, back, ignoreVersion); diff != "" {
		t.Fatalf("decode(encode(x)) (-std +ours):\n%s", diff)
	}
}

// built makes a timeline whose strings are pieces of data.
func built(data []byte) *Timeline {
	parts := bytes.Split(data, []byte{0})
	s := func(i int) string { return string(parts[i%len(parts)]) }
	n := int64(len(data)) - 3
	steps := []Step{{Agent: s(0), ID: s(1), Preview: s(2), Status: s(3), Task: s(4)}}
	if len(data)%2 == 0 {
		steps = nil
	}
	child := &Item{Kind: ItemKind(s(5)), Tool: &Tool{ID: s(6), Name: s(7), Status: Status(s(8)), Parent: s(0)}}
	return &Timeline{
		Now:         n * 1e15,
		Diagnostics: []Diagnostic{{Code: s(1), ID: s(2), Seq: n}},
		Items: []*Item{
			{Kind: ItemAssistant, Text: s(0), Interrupted: n%3 == 0, Level: s(1), Batch: s(2)},
			{Kind: ItemToolGroup, Batch: s(3), Tools: []*Tool{
				{ID: s(4), Name: s(5), Status: StatusRunning, Summary: s(6), Output: s(7), UpdateSeq: int(n), Meta: n%2 == 0,
					Delegation: &Delegation{Mode: s(8), ActiveID: s(0), Steps: steps}, Children: []*Item{child}},
				{ID: s(1), Name: s(2), Status: StatusFailed, Error: s(3), StartT: n, EndT: -n, DurationMS: n},
			}},
		},
	}
}
