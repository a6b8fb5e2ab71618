package event_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"unicode/utf8"

	"github.com/toolsim/toolsim/event"
)

// FuzzDecode feeds arbitrary bytes to the reader: it must never panic or
// loop, every error must be a *DecodeError (or a read error), and whatever
// decodes must re-encode to a fixed point.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"trace":"toolsim/v1","source":"sim","seed":1}` + "\n" + `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}`,
		`{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"grep","args":{"pattern":"x"},"batch":"m"}`,
		`{"seq":1,"t":0,"kind":"tool_done","id":"a","ok":true,"duration_ms":3,"x":[1,{"y":null}]}`,
		`{"seq":1,"t":0,"kind":"text","text":"\u00e9\n\"q\""}`,
		`{"seq":1,"t":0,"kind":"whatever"}` + "\r\n\n" + `{"seq":2,"t":0,"kind":"turn_end"}`,
		"{\"seq\":1,\"t\":0,\"kind\":\"text\",\"text\":\"\xff\"}",
		`[]`, `{`, ``, "\n\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := event.NewReader(bytes.NewReader(data), event.ReaderOptions{MaxLine: 4096})
		var buf []byte
		for range 10_000 {
			var ev event.Event
			err := r.Next(&ev)
			if err == io.EOF {
				return
			}
			var de *event.DecodeError
			if err != nil {
				if !errors.As(err, &de) {
					t.Fatalf("error %T %v is not a *DecodeError", err, err)
				}
				continue
			}
			buf = event.AppendEvent(buf[:0], &ev)
			_, back, err := event.ReadAll(bytes.NewReader(buf), event.ReaderOptions{})
			if err != nil || len(back) != 1 {
				t.Fatalf("re-encoded %s does not read back: %v", buf, err)
			}
			if again := event.AppendEvent(nil, &back[0]); !bytes.Equal(again, buf) {
				t.Fatalf("not a fixed point:\n%s\n%s", buf, again)
			}
		}
		t.Fatal("reader did not reach EOF after 10000 calls")
	})
}

// FuzzValid checks the hand-written syntax checker against encoding/json.
func FuzzValid(f *testing.F) {
	for _, s := range []string{"\"\x9f\"", `{}`, `[1,2.5e-3,"a\u00e9\n",true,null,{"k":[]}]`, `{"a":}`, `01`, `-`, `1.`, `"\x"`, "\"\x01\"", ` 3 `, `[1,]`, `{"a" 1}`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got := event.CheckJSON(data) == nil
		// Traces are UTF-8: the checker rejects bad bytes that encoding/json
		// would let through inside strings.
		want := json.Valid(data) && utf8.Valid(data)
		if got != want {
			t.Fatalf("checker says valid=%v, encoding/json says %v, for %q", got, want, data)
		}
	})
}

// FuzzUnquote checks the string decoder against encoding/json.
func FuzzUnquote(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\nb\t\"q\"\\\/"`, `"\u00e9\ud83d\ude00"`, `"\ud800x"`, `"\udc00\ud800"`, `"\ud83d\u0041"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		lit = bytes.TrimSpace(lit) // encoding/json allows white space around a value
		var want string
		// The reader rejects invalid UTF-8 before any string is decoded.
		if !utf8.Valid(lit) || json.Unmarshal(lit, &want) != nil || len(lit) < 2 || lit[0] != '"' {
			return
		}
		if got := event.Unquote(lit[1 : len(lit)-1]); got != want {
			t.Fatalf("unquote(%s) = %q, encoding/json says %q", lit, got, want)
		}
	})
}
