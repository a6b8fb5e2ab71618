package claudetranscript

import (
	"encoding/json"
	"testing"
)

// The scanner must agree with encoding/json: same validity for objects,
// same decoded strings.

var scanInputs = []string{
	`{}`, `{"a":1}`, `{"a":[1,2,{"b":null}],"c":"d"}`, ` {"a" : true , "b":false} `,
	`{"a":-0.5e+10}`, `{"a":0}`, `{"a":"\u00e9\ud83d\ude00\n\"\\\/"}`, `{"a":"\ud800"}`, `{"a":"\udc00x"}`,
	`{"a":1,}`, `{"a"}`, `{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":tru}`, `{"a":nul}`, `{"a":"x`,
	`{"a":"\x"}`, "{\"a\":\"\x01\"}", `{"a":[1 2]}`, `{"a":1}}`, `[1]`, `"s"`, `{"a":"\u12"}`, `{a:1}`,
	`{"a":1e}`, `{"a":-}`, `{"a":[}`, `{"a":{"b":}}`, "{\"a\":\"\xff\"}", `{"a":"x"} x`, `{"a":"x"`,
}

func TestScanAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range scanInputs {
		err := topObject([]byte(in), nil)
		var m map[string]any
		want := json.Unmarshal([]byte(in), &m) == nil
		if (err == nil) != want {
			t.Errorf("%q: scanner err = %v, encoding/json valid = %v", in, err, want)
		}
	}
}

func TestStr(t *testing.T) {
	for _, in := range []string{`""`, `"plain"`, `"\u00e9\ud83d\ude00\n\"\\\/\b\f\r\t"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00"`, "\"\xff\"", `"é"`} {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%q: %v", in, err)
		}
		if got := str([]byte(in)); got != want {
			t.Errorf("str(%s) = %q, want %q", in, got, want)
		}
	}
}

func TestTrustedSkipFindsEscapedQuotes(t *testing.T) {
	in := []byte(`{"a":"x\\","b":"y\"z","c":[1,{"d":"\\\""}],"e":2}`)
	var keys []string
	members(in, func(k, v []byte) { keys = append(keys, string(k)+"="+string(v)) })
	want := []string{`a="x\\"`, `b="y\"z"`, `c=[1,{"d":"\\\""}]`, `e=2`}
	if len(keys) != len(want) {
		t.Fatalf("members = %q", keys)
	}
	for i := range want {
		if keys[i] != want[i] {
			t.Errorf("member %d = %s, want %s", i, keys[i], want[i])
		}
	}
}

func FuzzScan(f *testing.F) {
	for _, in := range scanInputs {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		err := topObject([]byte(in), nil)
		var m map[string]json.RawMessage
		if (err == nil) != (json.Unmarshal([]byte(in), &m) == nil) {
			t.Fatalf("%q: scanner err = %v, encoding/json disagrees", in, err)
		}
		if err != nil {
			return
		}
		_ = topObject([]byte(in), func(k, v []byte) {
			if v[0] == '"' {
				var want string
				_ = json.Unmarshal(v, &want)
				if got := str(v); got != want {
					t.Fatalf("str(%s) = %q, want %q", v, got, want)
				}
			}
		})
	})
}
