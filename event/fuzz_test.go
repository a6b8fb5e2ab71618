package event_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

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
