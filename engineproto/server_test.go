package engineproto_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/rebuild"
)

// serveOpts serves the reference engine and its reconstruction, as
// `toolsim engine` does.
var serveOpts = engineproto.ServeOptions{
	New: func(meta []string) engineproto.Engine { return engine.New(engine.Options{MetaTools: meta}) },
	Reconstruct: func(log []byte, meta []string) (engineproto.Engine, error) {
		res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{Engine: engine.Options{MetaTools: meta}})
		if err != nil {
			return nil, err
		}
		return res.Engine, nil
	},
}

const persistedLog = `{"log":"toolsim-log/1","t0":"2025-01-01T00:00:00.000Z","writer":"test"}
{"v":1,"id":"r1","seq":1,"ts":"2025-01-01T00:00:00.000Z","type":"tool_call","call_id":"a","name":"grep","args":{}}
{"v":1,"id":"r2","seq":2,"ts":"2025-01-01T00:00:00.005Z","type":"tool_result","call_id":"a","ok":true}
`

const (
	start1 = `{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"grep","args":{"pattern":"x"},"batch":"m"}`
	start2 = `{"seq":2,"t":1,"kind":"tool_start","id":"b","name":"read","args":{"path":"f"},"batch":"m"}`
	done1  = `{"seq":3,"t":4,"kind":"tool_done","id":"a","ok":true,"output":"<hit> & more"}`
	late   = `{"seq":4,"t":5,"kind":"tool_done","id":"zz","ok":false,"error":"boom"}`
)

// session is a representative conversation with the server: every message
// type, deltas and whole timelines, and every kind of refusal. want is
// what the reply's message must contain ("" for a reply that is no error).
var session = []struct{ line, want string }{
	{`{"type":"event","id":1,"event":` + start1 + `}`, "no session: the first message must be init"},
	{`{"type":"init","id":2,"protocol":"toolsim-engine/0","options":{"width":80}}`, `protocol "toolsim-engine/0" not supported`},
	{`{"type":"event","id":3,"event":` + start1 + `}`, `no session: init was refused (protocol "toolsim-engine/0")`},
	{`{"type":"init","id":4,"protocol":"toolsim-engine/1","options":{"width":80,"meta_tools":null,"features":["tools","text"]}}`, ""},
	{`{"type":"render","id":5,"width":40}`, ""},
	{`{"type":"event","id":6,"event":` + start1 + `}`, ""},
	{`{"type":"batch","id":7,"events":[` + start2 + `,` + done1 + `,` + late + `],"finish":true}`, ""},
	{`{"type":"event","id":"8","event":` + start1 + `}`, `member "id": want an integer, got a string`},
	{`{"type":"event","id":9,"event":{"seq":"1","t":0,"kind":"turn_end"}}`, `event: field "seq": want an integer, got a string`},
	{`{"type":"batch","id":10,"events":[` + start1 + `,{"seq":2,"t":0}]}`, `events[1]: field "kind": missing required field`},
	{`{"type":"event","id":11`, `line 11: not JSON`},
	{`{"type":"teleport","id":12}`, `unknown message type "teleport"`},
	{`{"type":"reconstruct","id":13,"log":` + mustJSON(persistedLog) + `}`, ""},
	{`{"type":"render","id":14,"width":40}`, ""},
	{`{"type":"reset","id":15}`, ""},
	{`{"type":"finish","id":16}`, ""},
	{`{"type":"event","event":` + start1 + `}`, `member "id" is missing`},
	{`{"type":"event","id":18}`, `member "event" is missing`},
	{`{"type":"event","id":19,"id":19,"event":` + start1 + `}`, `member "id": appears twice`},
	{`[1,2]`, "want a JSON object, got an array"},
	{`{"type":"render","id":21,"width":-3}`, `member "width": must be at least 0, got -3`},
	{`{"type":"batch","id":22,"events":[` + start1 + `,{"seq":2,"t":0}],"finish":true}`, `events[1]: field "kind": missing required field`},
	{`{"type":"snapshot","id":23}`, ""},
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// replies runs Serve over the lines and returns its reply lines.
func replies(t testing.TB, opts engineproto.ServeOptions, lines ...string) []string {
	t.Helper()
	var out bytes.Buffer
	if err := engineproto.Serve(strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, opts); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
}

// TestServerRepliesMatchTheSchema: every reply the reference server writes
// over the session is valid against docs/protocol.schema.json, carries the
// id it answers, and errors say what is wrong in toolsim's words.
func TestServerRepliesMatchTheSchema(t *testing.T) {
	s := loadSchema(t)
	lines := make([]string, len(session))
	for i, step := range session {
		lines[i] = step.line
	}
	got := replies(t, serveOpts, lines...)
	// one reply per message, but a batch of 3 events with finish gets 4
	if len(got) != len(session)+3 {
		t.Fatalf("%d replies for %d messages:\n%s", len(got), len(session), strings.Join(got, "\n"))
	}
	r := 0
	for i, step := range session {
		n := 1
		if strings.Contains(step.line, `"finish":true`) && step.want == "" {
			n = 4 // a refused batch gets its error alone
		}
		for k := range n {
			checkReply(t, s, i+1, step.want, got[r], k)
			r++
		}
	}
}

func checkReply(t *testing.T, s *schema, id int, want, line string, index int) {
	t.Helper()
	if err := s.validate([]byte(line), "Reply"); err != nil {
		t.Errorf("message %d: reply does not match the schema: %v\n%s", id, err, line)
	}
	var rep struct {
		Type    string
		ID      int
		Index   int
		Message string
	}
	json.Unmarshal([]byte(line), &rep)
	wantID := id
	if want != "" && (strings.HasPrefix(want, "member \"id\"") || strings.HasPrefix(want, "line ") || strings.HasPrefix(want, "want a JSON")) {
		wantID = 0 // the id itself is what is wrong
	}
	switch {
	case rep.ID != wantID || rep.Index != index:
		t.Errorf("message %d: reply id %d index %d, want %d %d: %s", id, rep.ID, rep.Index, wantID, index, line)
	case want == "" && rep.Type == "error":
		t.Errorf("message %d: error %q", id, rep.Message)
	case want != "" && (rep.Type != "error" || !strings.Contains(rep.Message, want)):
		t.Errorf("message %d: reply %s, want an error containing %q", id, line, want)
	}
	for _, leak := range []string{"Go struct", "cannot unmarshal", "json:", "invalid character"} {
		if strings.Contains(rep.Message, leak) {
			t.Errorf("message %d: error leaks Go error text: %q", id, rep.Message)
		}
	}
}

// TestRenderOfEmptyTimelineHasText: the schema requires text.
func TestRenderOfEmptyTimelineHasText(t *testing.T) {
	got := replies(t, serveOpts, `{"type":"init","id":1,"protocol":"toolsim-engine/1","options":{"width":80}}`, `{"type":"render","id":2,"width":40}`)
	if want := `{"type":"rendered","id":2,"text":""}`; got[1] != want {
		t.Errorf("render = %s, want %s", got[1], want)
	}
}

// zeros is /dev/zero: a line that never ends.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestEndlessLineFailsFast: a line with no end is refused once it passes
// the limit, without reading (or holding) much more than the limit.
func TestEndlessLineFailsFast(t *testing.T) {
	var out bytes.Buffer
	z := &zeros{}
	err := engineproto.Serve(z, &out, serveOpts)
	want := fmt.Sprintf("line 1 longer than %d bytes", engineproto.MaxLine)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want %q", err, want)
	}
	if z.read > engineproto.MaxLine+2<<20 {
		t.Errorf("read %d bytes of an endless line, want at most the limit and a buffer", z.read)
	}
	if !strings.Contains(out.String(), `{"type":"error","id":0,"message":"`+want) {
		t.Errorf("reply = %.200s", out.String())
	}
}

// FuzzServe feeds arbitrary input to the server: it must not panic, and
// every reply must be valid against the schema, with an id that some
// message carried, or be an error.
func FuzzServe(f *testing.F) {
	var all []string
	for _, step := range session {
		f.Add([]byte(step.line + "\n"))
		all = append(all, step.line)
	}
	f.Add([]byte(strings.Join(all[3:], "\n")))
	s := loadSchema(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		if err := engineproto.Serve(bytes.NewReader(data), &out, serveOpts); err != nil && !errors.Is(err, io.EOF) {
			t.Fatalf("Serve: %v", err)
		}
		ids := map[int64]bool{}
		for _, line := range bytes.Split(data, []byte("\n")) {
			var m struct{ ID int64 }
			if json.Unmarshal(line, &m) == nil {
				ids[m.ID] = true
			}
		}
		for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
			if line == "" {
				continue
			}
			if err := s.validate([]byte(line), "Reply"); err != nil {
				t.Fatalf("reply does not match the schema: %v\n%s", err, line)
			}
			var rep struct {
				Type string
				ID   int64
			}
			json.Unmarshal([]byte(line), &rep)
			if rep.Type != "error" && !ids[rep.ID] {
				t.Fatalf("reply for id %d, which no message carried: %s", rep.ID, line)
			}
		}
	})
}
