package jsonscan_test

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// FuzzCheck checks the syntax checker against encoding/json.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"\"\x9f\"", `{}`, `[1,2.5e-3,"a\u00e9\n",true,null,{"k":[]}]`, `{"a":}`, `01`, `-`, `1.`, `"\x"`, "\"\x01\"", ` 3 `, `[1,]`, `{"a" 1}`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := jsonscan.Check(data) == nil
		// Traces are UTF-8: the checker rejects bad bytes that encoding/json
		// would let through inside strings.
		want := json.Valid(data) && utf8.Valid(data)
		if got != want {
			t.Fatalf("checker says valid=%v, encoding/json says %v, for %q", got, want, data)
		}
	})
}

// FuzzUnquote checks the string decoder against encoding/json, on UTF-8
// and on bytes that are not (the scanners that check escapes but not
// UTF-8 hand those to it; both give U+FFFD for each bad byte).
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\t\"q\"\\\/"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"\udc00\ud800"`, `"\ud83d\u0041"`, "\"\xff\"", "\"\xe2\x82\\u0041\xe9\"", `"\uD83D\uDE00\u00C9"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		lit = bytes.TrimSpace(lit) // encoding/json allows white space around a value
		var want string
		if json.Unmarshal(lit, &want) != nil || len(lit) < 2 || lit[0] != '"' {
			return
		}
		if got := jsonscan.Unquote(lit[1 : len(lit)-1]); got != want {
			t.Fatalf("unquote(%s) = %q, encoding/json says %q", lit, got, want)
		}
		if got, ok := jsonscan.String(lit); !ok || got != want {
			t.Fatalf("String(%s) = %q, %v, encoding/json says %q", lit, got, ok, want)
		}
	})
}

// FuzzCompact checks the compactor against encoding/json.
func FuzzCompact(f *testing.F) {
	for _, s := range []string{` { "a" : [ 1 , "x y\\\" z" ] } `, `"\\"`, `[true, null]`, "\"\xff\"", `{}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := jsonscan.Compact(data)
		var want bytes.Buffer
		err := json.Compact(&want, data)
		if ok && (err != nil || !bytes.Equal(got, want.Bytes())) {
			t.Fatalf("Compact(%q) = %q; encoding/json: %q, %v", data, got, want.Bytes(), err)
		}
		if !ok && err == nil && utf8.Valid(data) {
			t.Fatalf("Compact(%q) refused what encoding/json compacts", data)
		}
	})
}

// FuzzCheckedMembers checks the splitter of well-formed objects against
// the checker's own split.
func FuzzCheckedMembers(f *testing.F) {
	for _, s := range []string{` { "a" : [ 1 , "x\\\"}" ] , "b":{"c":{}}, "d" : -1.5e3 ,"e":true} `, `{}`, `{"a":"\\"}`, `{"":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.TrimSpace(data)
		want, err := jsonscan.Object(data, nil)
		if err != nil || len(data) == 0 || data[0] != '{' {
			return
		}
		got := jsonscan.CheckedMembers(data, nil)
		if len(got) != len(want) {
			t.Fatalf("CheckedMembers(%q) = %q, want %q", data, got, want)
		}
		for i := range want {
			if !bytes.Equal(got[i].Key, want[i].Key) || !bytes.Equal(got[i].Val, want[i].Val) {
				t.Fatalf("CheckedMembers(%q) member %d = %q: %q, want %q: %q", data, i, got[i].Key, got[i].Val, want[i].Key, want[i].Val)
			}
		}
	})
}

// FuzzCheckedElements checks the splitter of well-formed arrays against
// the checker's own split.
func FuzzCheckedElements(f *testing.F) {
	for _, s := range []string{` [ 1 , "x\\\"]" , {"a":[]}, [ ], -1.5e3 ,true, null ] `, `[]`, `["\\"]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.TrimSpace(data)
		want, err := jsonscan.Array(data, nil)
		if err != nil || len(data) == 0 || data[0] != '[' {
			return
		}
		got := jsonscan.CheckedElements(data, nil)
		if len(got) != len(want) {
			t.Fatalf("CheckedElements(%q) = %q, want %q", data, got, want)
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("CheckedElements(%q) element %d = %q, want %q", data, i, got[i], want[i])
			}
		}
	})
}
