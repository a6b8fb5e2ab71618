package event_test

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
)

func ptr[T any](v T) *T { return &v }

func TestDecodeEvents(t *testing.T) {
	tests := []struct {
		name string
		line string
		want event.Event
	}{
		{"turn start", `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}`,
			event.Event{Seq: 1, T: 0, Kind: event.KindTurnStart, Role: "assistant"}},
		{"tool start with batch and parent", `{"seq":2,"t":5,"kind":"tool_start","id":"a","name":"grep","args":{ "pattern" : "x" },"batch":"m1","parent":"p"}`,
			event.Event{Seq: 2, T: 5, Kind: event.KindToolStart, ID: "a", Name: "grep", Args: []byte(`{"pattern":"x"}`), Batch: "m1", Parent: "p"}},
		{"tool done", `{"seq":3,"t":9,"kind":"tool_done","id":"a","ok":false,"error":"boom","duration_ms":4}`,
			event.Event{Seq: 3, T: 9, Kind: event.KindToolDone, ID: "a", Error: "boom", DurationMS: ptr(int64(4))}},
		{"escaped text", `{"seq":1,"t":0,"kind":"text","text":"a\"b\n\u00e9"}`,
			event.Event{Seq: 1, Kind: event.KindText, Text: "a\"b\né"}},
		{"unknown field kept", `{"seq":1,"t":0,"kind":"cancel","zeta":[1, 2],"alpha":null}`,
			event.Event{Seq: 1, Kind: event.KindCancel, Extra: []event.Field{{Key: "zeta", Value: []byte(`[1,2]`)}, {Key: "alpha", Value: []byte(`null`)}}}},
		{"field of another kind kept as unknown", `{"seq":1,"t":0,"kind":"turn_end","text":"x"}`,
			event.Event{Seq: 1, Kind: event.KindTurnEnd, Extra: []event.Field{{Key: "text", Value: []byte(`"x"`)}}}},
		{"unknown kind", `{"seq":1,"t":0,"kind":"telemetry","id":"a"}`,
			event.Event{Seq: 1, Kind: "telemetry", Extra: []event.Field{{Key: "id", Value: []byte(`"a"`)}}}},
		{"empty id accepted (engine reports missing_id)", `{"seq":1,"t":0,"kind":"tool_done","id":"","ok":true}`,
			event.Event{Seq: 1, Kind: event.KindToolDone, OK: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, evs, err := event.ReadAll(strings.NewReader(tt.line+"\n"), event.ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(evs) != 1 {
				t.Fatalf("got %d events, want 1", len(evs))
			}
			if diff := cmp.Diff(tt.want, evs[0]); diff != "" {
				t.Errorf("decode mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDecodeErrors(t *testing.T) {
	long := `{"seq":1,"t":0,"kind":"text","text":"` + strings.Repeat("x", 2000) + `"}`
	tests := []struct {
		name    string
		input   string
		maxLine int
		want    string // substring of the error
	}{
		{"malformed JSON", "{\"seq\":1,\n", 0, "line 1: malformed JSON"},
		{"not an object", "[1,2]\n", 0, "line 1: want a JSON object, got an array"},
		{"wrong type", `{"seq":"1","t":0,"kind":"turn_end"}`, 0, `line 1: field "seq": want an integer, got a string`},
		{"fraction", `{"seq":1.5,"t":0,"kind":"turn_end"}`, 0, `field "seq": want an integer`},
		{"integer too large", `{"seq":1,"t":1000000000000000000,"kind":"turn_end"}`, 0, `line 1: field "t": must be below 1000000000000000000 (at most 18 digits), got 1000000000000000000`},
		{"negative integer too large", `{"seq":1,"t":-1000000000000000000,"kind":"turn_end"}`, 0, `field "t": must be below`},
		{"BOM on a later line", "{\"seq\":1,\"t\":0,\"kind\":\"turn_end\"}\n\xef\xbb\xbf{\"seq\":2,\"t\":0,\"kind\":\"turn_end\"}\n", 0, "line 2: malformed JSON"},
		{"missing seq", `{"t":0,"kind":"turn_end"}`, 0, `field "seq": missing required field`},
		{"missing id", `{"seq":1,"t":0,"kind":"tool_done","ok":true}`, 0, `line 1: field "id": missing required field for kind "tool_done"`},
		{"missing ok", `{"seq":1,"t":0,"kind":"tool_done","id":"a"}`, 0, `field "ok": missing required field`},
		{"bad role", `{"seq":1,"t":0,"kind":"turn_start","role":"robot"}`, 0, `field "role": want one of [assistant user], got "robot"`},
		{"args not object", `{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"x","args":[1]}`, 0, `field "args": want an object, got an array`},
		{"duplicate member", `{"seq":1,"t":0,"kind":"text","text":"a","text":"b"}`, 0, `field "text": appears twice`},
		{"non-increasing seq", "{\"seq\":2,\"t\":0,\"kind\":\"turn_end\"}\n{\"seq\":2,\"t\":0,\"kind\":\"turn_end\"}\n", 0, `line 2: field "seq": must be strictly increasing (previous 2, got 2)`},
		{"decreasing t", "{\"seq\":1,\"t\":5,\"kind\":\"turn_end\"}\n{\"seq\":2,\"t\":4,\"kind\":\"turn_end\"}\n", 0, `line 2: field "t": must not decrease (previous 5, got 4)`},
		{"invalid UTF-8", "{\"seq\":1,\"t\":0,\"kind\":\"text\",\"text\":\"a\xffb\"}\n", 0, "line 1: invalid UTF-8 at byte offset 38"},
		{"empty file", "", 0, "t.jsonl: empty trace: no header and no events"},
		{"blank lines only", "\n\n  \n", 0, "empty trace"},
		{"line too long", long + "\n", 1000, "line 1: line longer than the 1000-byte limit"},
		{"bad version", `{"trace":"toolsim/v9"}`, 0, `field "trace": unsupported trace version "toolsim/v9"`},
		{"header not first", "{\"seq\":1,\"t\":0,\"kind\":\"turn_end\"}\n{\"trace\":\"toolsim/v1\"}\n", 0, "line 2: field \"trace\": a header is only allowed on the first line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := event.ReadAll(strings.NewReader(tt.input), event.ReaderOptions{Name: "t.jsonl", MaxLine: tt.maxLine})
			if err == nil {
				t.Fatalf("no error, want %q", tt.want)
			}
			var de *event.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error %T %v is not a *DecodeError", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.HasPrefix(err.Error(), "t.jsonl") {
				t.Errorf("error %q, want it to start with the file name and contain %q", err, tt.want)
			}
		})
	}
}

// TestBOMSkipped: a UTF-8 byte order mark at the start of the file is
// skipped, before a header or an event.
func TestBOMSkipped(t *testing.T) {
	for _, input := range []string{
		"\xef\xbb\xbf{\"trace\":\"toolsim/v1\"}\n{\"seq\":1,\"t\":0,\"kind\":\"turn_end\"}\n",
		"\xef\xbb\xbf{\"seq\":1,\"t\":0,\"kind\":\"turn_end\"}\n",
	} {
		_, evs, err := event.ReadAll(strings.NewReader(input), event.ReaderOptions{Name: "t.jsonl"})
		if err != nil || len(evs) != 1 {
			t.Errorf("%q: %v, %d events", input, err, len(evs))
		}
	}
}

// TestReaderContinuesAfterBadLine checks that one bad line does not hide the
// lines after it, and that an over-long line is skipped whole.
func TestReaderContinuesAfterBadLine(t *testing.T) {
	input := "{\"seq\":1,\"t\":0,\"kind\":\"turn_end\"}\n" +
		"{\"seq\":2,\"t\":0,\"kind\":\"text\",\"text\":\"" + strings.Repeat("y", 5000) + "\"}\n" +
		"{bad\n" +
		"{\"seq\":3,\"t\":1,\"kind\":\"turn_end\"}\r\n"
	r := event.NewReader(strings.NewReader(input), event.ReaderOptions{MaxLine: 100})
	var got []string
	for {
		var ev event.Event
		err := r.Next(&ev)
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, "error line "+itoa(r.Line()))
			continue
		}
		got = append(got, "seq "+itoa(int(ev.Seq)))
	}
	want := []string{"seq 1", "error line 2", "error line 3", "seq 3"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("reader sequence (-want +got):\n%s", diff)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestHugeLine reads a 70 MB line: over the 64 MiB default it is an error,
// under a raised limit it decodes.
func TestHugeLine(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 70 MB")
	}
	text := strings.Repeat("z", 70<<20)
	line := `{"seq":1,"t":0,"kind":"text","text":"` + text + `"}` + "\n"
	_, _, err := event.ReadAll(strings.NewReader(line), event.ReaderOptions{})
	if !errors.Is(err, event.ErrLineTooLong) {
		t.Fatalf("default limit: got %v, want ErrLineTooLong", err)
	}
	_, evs, err := event.ReadAll(strings.NewReader(line), event.ReaderOptions{MaxLine: 80 << 20})
	if err != nil || len(evs) != 1 || len(evs[0].Text) != len(text) {
		t.Fatalf("raised limit: err %v, %d events", err, len(evs))
	}
}

func TestRoundTrip(t *testing.T) {
	input := strings.Join([]string{
		`{"trace":"toolsim/v1","source":"sim","seed":42,"meta":{"b": 1,"a":2},"x-extra":true}`,
		`{"seq":1,"t":0,"kind":"turn_start","role":"assistant","zz":{"k": [1, "two"]},"aa":1}`,
		`{"seq":2,"t":3,"kind":"tool_start","id":"a","name":"bash","args":{"command":"ls\n-la"},"batch":"m"}`,
		`{"seq":3,"t":4,"kind":"tool_progress","id":"a","output":"tab\there","details":{"ui":{"kind":"agent_delegation"}}}`,
		`{"seq":4,"t":5,"kind":"tool_done","id":"a","ok":true,"duration_ms":0}`,
		`{"seq":5,"t":5,"kind":"future_kind","payload":{"deep":[{"x":null}]}}`,
		`{"seq":6,"t":6,"kind":"text","text":"héllo \u2028 \u0001 <b>"}`,
	}, "\n") + "\n"
	once := reencode(t, input)
	twice := reencode(t, once)
	if once != twice {
		t.Errorf("re-encoding is not a fixed point:\nonce:  %s\ntwice: %s", once, twice)
	}
	for _, want := range []string{`"aa":1`, `"zz":{"k":[1,"two"]}`, `"payload":{"deep":[{"x":null}]}`, `"x-extra":true`, `"duration_ms":0`, `"meta":{"b":1,"a":2}`} {
		if !strings.Contains(once, want) {
			t.Errorf("re-encoded trace lost %s:\n%s", want, once)
		}
	}
}

func reencode(t *testing.T, input string) string {
	t.Helper()
	h, evs, err := event.ReadAll(strings.NewReader(input), event.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := event.WriteAll(&buf, h, evs); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestWriterRejects(t *testing.T) {
	tests := []struct {
		name string
		evs  []event.Event
		want string
	}{
		{"bad args", []event.Event{{Seq: 1, Kind: event.KindToolStart, Args: []byte(`{"a":`)}}, `field "args": malformed JSON`},
		{"args not object", []event.Event{{Seq: 1, Kind: event.KindToolStart, Args: []byte(`[]`)}}, `want an object`},
		{"zero seq", []event.Event{{Seq: 0, Kind: event.KindTurnEnd}}, `field "seq": must be at least 1`},
		{"out of order", []event.Event{{Seq: 2, Kind: event.KindTurnEnd}, {Seq: 1, Kind: event.KindTurnEnd}}, "out of order"},
		{"bad state", []event.Event{{Seq: 1, Kind: event.KindPermission, State: "maybe"}}, `field "state"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := event.NewWriter(io.Discard)
			var err error
			for i := range tt.evs {
				if err = w.Write(&tt.evs[i]); err != nil {
					break
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got error %v, want one containing %q", err, tt.want)
			}
		})
	}
}
