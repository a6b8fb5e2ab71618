package gemini

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// The fast decoders and the jsonscan walk must agree with encoding/json
// and the streaming walk wherever they answer.

var fastSeeds = []string{
	`{"id":"m1","timestamp":"2026-01-01T00:00:00Z","type":"gemini","content":"x","toolCalls":[{"id":"c1","name":"ls","args":{"a":1},"result":[{"functionResponse":{}}],"status":"success"},null],"thoughts":[{"subject":"s","description":"d"}],"model":"g","tokens":{"input":1}}`,
	`{"id":null,"toolCalls":[{"id":null}]}`, `{"toolCalls":[1]}`, `{"thoughts":"x"}`, `{"ID":"x"}`, `{"id":1}`,
	`{"$rewindTo":"m1"}`, `{"$set":{"summary":"s"}}`, `{"sessionId":"s","projectHash":"p"}`, `[]`, `null`, "{\"id\":\"\xff\"}",
	`{"sessionId":"s","messages":[{"id":"u1","type":"user","content":"hi"},` + "\n" + `{"id":"g1","type":"gemini","content":"yo"}],"summary":"x"}`,
	`{"messages":[1,{"type":3}],"messages":[]}`, `[{"functionResponse":{"id":"c","response":{"output":"ok"}}},{"text":"t"},null,{"inlineData":{}}]`,
	`[{"functionResponse":null,"text":null}]`, `[{"functionResponse":5}]`, `{"output":"x","error":null}`, `[{"Text":"x"}]`, `{"messages":{}}`, `{"messages":[]} x`, `{"kind":"main"}`,
}

func FuzzFastWalk(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add([]byte(s))
	}
	for _, s := range scenarioInputs(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareFast(t, data) })
}

func TestFastWalkAgrees(t *testing.T) {
	for _, s := range fastSeeds {
		compareFast(t, []byte(s))
	}
	for _, s := range scenarioInputs(t) {
		compareFast(t, s)
	}
}

// scenarioInputs are the Gemini CLI inputs of the scenarios.
func scenarioInputs(tb testing.TB) [][]byte {
	names, err := filepath.Glob(filepath.Join("..", "..", "scenarios", "import-gemini-*.txtar"))
	if err != nil || len(names) == 0 {
		tb.Fatalf("no gemini scenarios: %v", err)
	}
	var out [][]byte
	for _, name := range names {
		ar, err := txtar.ParseFile(name)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".json") || strings.HasSuffix(f.Name, ".jsonl") {
				out = append(out, f.Data)
			}
		}
	}
	return out
}

// compareFast checks the record decoders and the document walk on data.
func compareFast(t *testing.T, data []byte) {
	t.Helper()
	check := func(what string, fastOK bool, got, want any, unmarshal func() error) {
		if !fastOK {
			return
		}
		if err := unmarshal(); err != nil {
			t.Fatalf("fast %s decoder accepted %q; encoding/json: %v", what, data, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("fast %s decoder on %q:\n got %+v\nwant %+v", what, data, got, want)
		}
	}
	var m, wantM message
	check("message", fastMessage(data, &m), &m, &wantM, func() error { return json.Unmarshal(data, &wantM) })
	var r, wantR sessionRecord
	check("record", fastRecord(data, &r), &r, &wantR, func() error { return json.Unmarshal(data, &wantR) })
	var parts, wantParts []resultPart
	check("result parts", jsonscan.List(data, &parts, fastResultPart), &parts, &wantParts, func() error { return json.Unmarshal(data, &wantParts) })
	var texts, wantTexts []textPart
	check("text parts", jsonscan.List(data, &texts, fastTextPart), &texts, &wantTexts, func() error { return json.Unmarshal(data, &wantTexts) })
	var resp, wantResp responseBody
	check("response", fastResponse(data, &resp), &resp, &wantResp, func() error { return json.Unmarshal(data, &wantResp) })
	for _, strict := range []bool{false, true} {
		opts := importer.Options{Strict: strict}
		got, gerr := importData(data, opts, true)
		want, werr := importData(data, opts, false)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Fatalf("walks of %q disagree: fast err %v, streaming err %v", data, gerr, werr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("walks of %q disagree:\n fast %+v\nstreaming %+v", data, got, want)
		}
	}
}
