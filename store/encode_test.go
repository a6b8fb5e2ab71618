package store

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAppendRecordMatchesJSON checks that the hand-written encoder writes
// exactly what encoding/json writes, on every member and on strings and
// raw JSON that need escaping, compacting or validating.
func TestAppendRecordMatchesJSON(t *testing.T) {
	seq, dur, ok, no := int64(7), int64(-3), true, false
	full := Record{V: 1, ID: "r1", Seq: &seq, Parent: "r0", TS: "2025-01-01T00:00:00.000Z", Type: TypeToolLifecycle,
		Role: "assistant", Text: "hi", Interrupted: true, CallID: "c1", Name: "grep", Args: json.RawMessage(`{"a":[1,2]}`),
		Batch: "b", ParentCall: "p", Output: "out", Details: json.RawMessage(`{"d":true}`), OK: &no, Error: "e",
		DurationMS: &dur, State: "s", Reason: "why", Message: "m", Event: json.RawMessage(`{"kind":"x"}`),
		Updates: 2, Progress: "p1p2", EndTS: "2025-01-01T00:00:01.000Z", EndSeq: &seq, EndParent: "r9"}
	tests := []struct {
		name string
		rec  Record
	}{
		{"empty", Record{}},
		{"every member", full},
		{"ok true", Record{V: 1, ID: "r2", OK: &ok}},
		{"escapes", Record{Text: "a \"quote\" \\ <b> & \n\t\r\b\f \x01 \x7f é 日本 \u2028 \xff", Output: "<&>"}},
		{"raw with spaces", Record{Args: json.RawMessage(` { "a" : "b c" } `)}},
		{"raw with html", Record{Args: json.RawMessage(`{"a":"<&>"}`)}},
		{"raw with unicode", Record{Details: json.RawMessage(`{"a":"é\u2028"}`)}},
		{"invalid raw", Record{ID: "r3", Args: json.RawMessage(`{"a":`)}},
		{"raw null", Record{Event: json.RawMessage(`null`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := json.Marshal(&tt.rec)
			got, err := appendRecord([]byte("prefix"), &tt.rec)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("error %v, json.Marshal's %v", err, wantErr)
			}
			if diff := cmp.Diff(string(want), string(got[len("prefix"):])); diff != "" {
				t.Errorf("(-json.Marshal +appendRecord):\n%s", diff)
			}
		})
	}
}

// TestAppendRecordRandom compares the encoders on random strings.
func TestAppendRecordRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "Z", " ", "\"", "\\", "<", ">", "&", "\n", "\x00", "\x7f", "é", "\u2028", "\xff", "{", "}"}
	str := func() string {
		s := ""
		for range rng.IntN(6) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		return s
	}
	for i := range 5000 {
		r := Record{ID: str(), Text: str(), Output: str(), Error: str(), Args: json.RawMessage(`{"k":"` + str() + `"}`)}
		if rng.IntN(3) == 0 {
			r.Args = nil
		}
		want, _ := json.Marshal(&r)
		got, _ := appendRecord(nil, &r)
		if string(want) != string(got) {
			t.Fatalf("case %d: json.Marshal %q, appendRecord %q", i, want, got)
		}
	}
}

// TestAppendHeaderMatchesJSON checks the header encoder against
// encoding/json.
func TestAppendHeaderMatchesJSON(t *testing.T) {
	tests := []struct {
		name string
		h    Header
	}{
		{"empty", Header{}},
		{"plain", Header{Log: LogVersion, T0: "2025-01-01T00:00:00.000Z", Writer: "toolsim persist"}},
		{"faults and seed", Header{Log: LogVersion, T0: "x", Faults: []string{"dup", "torn"}, Seed: 1 << 63}},
		{"one fault", Header{Log: LogVersion, Faults: []string{"<&>\n"}}},
		{"no faults", Header{Log: "a\"b", Faults: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, _ := json.Marshal(&tt.h)
			if diff := cmp.Diff(string(want), string(appendHeader(nil, &tt.h))); diff != "" {
				t.Errorf("(-json.Marshal +appendHeader):\n%s", diff)
			}
		})
	}
}
