package gemini_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// jsonl builds a session-*.jsonl recording: the metadata line, then
// records.
func jsonl(records ...string) string {
	return `{"sessionId":"s1","projectHash":"p","startTime":"2025-10-29T10:39:45.000Z","lastUpdated":"2025-10-29T10:39:45.000Z","kind":"main"}` + "\n" +
		strings.Join(records, "\n") + "\n"
}

func TestSessionJSONL(t *testing.T) {
	running := gem("g1", `{"id":"c1","name":"read_file","args":{"path":"a.txt"},"status":"executing","timestamp":"2025-10-29T10:39:47.000Z"}`)
	done := gem("g1", call("c1", "success", resp("c1", `{"output":"hello"}`)))
	tests := []struct {
		name     string
		in       string
		want     []string
		problems []string
		meta     string
	}{
		{
			name: "a message rewritten by id keeps its place and its last version",
			in:   jsonl(user, running, `{"$set":{"lastUpdated":"2025-10-29T10:39:48.000Z"}}`, done),
			want: []string{userTurn, userEv, end, asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"success"}`,
				`{"kind":"tool_done","id":"c1","output":"hello","ok":true}`},
			meta: `{"format":"gemini-cli-jsonl","ignored":{"message rewritten":1},"kind":"main","last_updated":"2025-10-29T10:39:48.000Z","project_hash":"p","session_id":"s1","start_time":"2025-10-29T10:39:45.000Z"}`,
		},
		{
			name: "$rewindTo removes its message and every later one; $set messages is ignored",
			in: jsonl(user, done, strings.ReplaceAll(strings.ReplaceAll(user, `"u1"`, `"u2"`), "make a file", "no, undo that"),
				`{"$rewindTo":"u2"}`, `{"$set":{"messages":[]}}`),
			want: []string{userTurn, userEv, end, asst,
				`{"kind":"tool_start","id":"c1","name":"read_file","args":{"path":"a.txt"},"batch":"g1","status":"success"}`,
				`{"kind":"tool_done","id":"c1","output":"hello","ok":true}`},
			meta: `{"format":"gemini-cli-jsonl","ignored":{"$set messages":1,"message rewound":1},"kind":"main","last_updated":"2025-10-29T10:39:45.000Z","project_hash":"p","session_id":"s1","start_time":"2025-10-29T10:39:45.000Z"}`,
		},
		{
			name:     "a torn last line and an unknown record are reported; the rest is mapped",
			in:       jsonl(user, `{"what":1}`, `{"id":"g1","type":"gem`),
			want:     []string{userTurn, userEv, end},
			problems: []string{`line 3: record is neither a message, a $rewindTo, a $set nor session metadata: skipped`, `line 4: malformed JSON: unexpected end of JSON input: skipped`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, problems, meta := imp(t, false, tt.in)
			if diff := cmp.Diff(tt.want, evs); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if tt.meta != "" && meta != tt.meta {
				t.Errorf("meta = %s\nwant   %s", meta, tt.meta)
			}
		})
	}
}
