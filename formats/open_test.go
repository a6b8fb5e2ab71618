package formats_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

// readSource opens input and reads it to its end, returning what a
// command sees: the format, the header's trace, the seqs read, the
// problems and the error that ended it (nil at io.EOF).
func readSource(t *testing.T, input, from string, opts importer.Options) (src *formats.Source, seqs []int64, err error) {
	t.Helper()
	src, err = formats.Open(strings.NewReader(input), from, opts)
	if err != nil {
		return nil, nil, err
	}
	for {
		var ev event.Event
		err := src.Next(&ev)
		if err == io.EOF {
			return src, seqs, nil
		}
		if err != nil {
			return src, seqs, err
		}
		seqs = append(seqs, ev.Seq)
	}
}

func TestOpen(t *testing.T) {
	const hdr = `{"trace":"toolsim/v1"}` + "\n"
	const ev1 = `{"seq":1,"t":1,"kind":"text","text":"a"}` + "\n"
	const ev2 = `{"seq":2,"t":2,"kind":"text","text":"b"}` + "\n"
	tests := []struct {
		name, input, from string
		strict            bool
		wantFormat        string
		wantHeader        bool
		wantSeqs          []int64
		wantProblems      int
		wantErr           string // a substring of the error that ended the read
	}{
		{name: "canonical", input: hdr + ev1 + ev2, wantFormat: "toolsim", wantHeader: true, wantSeqs: []int64{1, 2}},
		{name: "canonical without header", input: ev1, wantFormat: "toolsim", wantSeqs: []int64{1}},
		{name: "byte order mark", input: string(formats.BOM) + hdr + ev1, wantFormat: "toolsim", wantHeader: true, wantSeqs: []int64{1}},
		{name: "header alone is an empty trace", input: hdr, wantFormat: "toolsim", wantHeader: true},
		{name: "empty input", input: "", wantFormat: "toolsim", wantErr: "in.jsonl: empty trace: no header and no events: nothing to replay or check"},
		{name: "blank input", input: "\n \n", wantFormat: "toolsim", wantErr: "nothing to replay or check"},
		{name: "bad line names file and line", input: hdr + ev1 + `{"seq":2,"t":2,"kind":"text"` + "\n", wantFormat: "toolsim", wantHeader: true, wantSeqs: []int64{1}, wantErr: "in.jsonl:line 3: malformed JSON"},
		{name: "bad header is the first error", input: `{"trace":"toolsim/v1","meta":3}` + "\n" + ev1, wantFormat: "toolsim", wantErr: `in.jsonl:line 1: field "meta"`},
		{name: "from names the format", input: hdr + ev1, from: "toolsim", wantFormat: "toolsim", wantHeader: true, wantSeqs: []int64{1}},
		{name: "imported with problems", input: codexTurn + `{"type":"item.started","item":{"type":"command_execution"}}` + "\n", wantFormat: "codex-exec-json", wantHeader: true, wantSeqs: []int64{1, 2, 3}, wantProblems: 1},
		{name: "imported to nothing", input: `{"type":"thread.started","thread_id":"0"}` + "\n", wantFormat: "codex-exec-json", wantHeader: true,
			wantErr: "in.jsonl: no events: read as codex-exec-json, it holds nothing to replay or check"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, seqs, err := readSource(t, tt.input, tt.from, importer.Options{Name: "in.jsonl", Strict: tt.strict})
			if src == nil {
				t.Fatalf("Open: %v", err)
			}
			if src.Format != tt.wantFormat || (src.Header != nil) != tt.wantHeader || len(src.Problems) != tt.wantProblems {
				t.Errorf("format %q, header %v, %d problems; want %q, %v, %d", src.Format, src.Header != nil, len(src.Problems), tt.wantFormat, tt.wantHeader, tt.wantProblems)
			}
			if diff := cmp.Diff(tt.wantSeqs, seqs); diff != "" {
				t.Errorf("seqs (-want +got):\n%s", diff)
			}
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tt.wantErr)
			}
			if strings.Contains(tt.wantErr, "nothing to replay") && !errors.Is(err, formats.ErrNoEvents) {
				t.Errorf("errors.Is(%v, ErrNoEvents) is false", err)
			}
		})
	}
}

// codexTurn is a `codex exec --json` turn with one call.
const codexTurn = `{"type":"thread.started","thread_id":"0"}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":0,"status":"completed"}}
`

func TestOpenFails(t *testing.T) {
	tests := []struct {
		name, input, from string
		strict            bool
		want              string
		wantImport        bool // an *ImportError
	}{
		{name: "unknown format", input: "{}", from: "nope", want: `in.jsonl: unknown format "nope"`},
		{name: "undetectable", input: "hello\n", want: "in.jsonl: cannot detect the format"},
		{name: "strict import stops", input: codexTurn + `{"type":"item.started","item":{"type":"command_execution"}}` + "\n", strict: true,
			want: "import in.jsonl as codex-exec-json: ", wantImport: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := formats.Open(strings.NewReader(tt.input), tt.from, importer.Options{Name: "in.jsonl", Strict: tt.strict})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want one starting %q", err, tt.want)
			}
			var ie *formats.ImportError
			if errors.As(err, &ie) != tt.wantImport {
				t.Errorf("errors.As(%v, *ImportError) = %v, want %v", err, !tt.wantImport, tt.wantImport)
			}
			if tt.wantImport && (ie.Format != "codex-exec-json" || !errors.Is(err, importer.ErrStrict)) {
				t.Errorf("ImportError %+v: want format codex-exec-json wrapping importer.ErrStrict", ie)
			}
		})
	}
}

// TestOpenStreamsCanonical shows a canonical trace is read as it arrives:
// the first event is yielded before the second is written.
func TestOpenStreamsCanonical(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		io.WriteString(pw, `{"trace":"toolsim/v1","meta":{"clock":"synthetic"}}`+"\n")
		io.WriteString(pw, `{"seq":1,"t":1,"kind":"text","text":"a"}`+"\n")
	}()
	src, err := formats.Open(pr, formats.Canonical, importer.Options{Name: "pipe"})
	if err != nil {
		t.Fatal(err)
	}
	if !src.Header.SyntheticClock() {
		t.Errorf("header %+v: want the synthetic clock read at Open", src.Header)
	}
	var ev event.Event
	if err := src.Next(&ev); err != nil || ev.Seq != 1 {
		t.Fatalf("Next: seq %d, %v; want seq 1", ev.Seq, err)
	}
	go func() {
		io.WriteString(pw, `{"seq":2,"t":2,"kind":"text","text":"b"}`+"\n")
		pw.Close()
	}()
	evs, err := src.ReadAll()
	if err != nil || len(evs) != 1 || evs[0].Seq != 2 {
		t.Fatalf("ReadAll: %v, %v; want the event of seq 2", evs, err)
	}
}

func TestPick(t *testing.T) {
	tests := []struct{ name, head, from, want string }{
		{"blank head is canonical", " \n", "", formats.Canonical},
		{"byte order mark alone", string(formats.BOM), "", formats.Canonical},
		{"from wins over content", `{"trace":"toolsim/v1"}`, "codex-exec-json", "codex-exec-json"},
		{"detected", codexTurn, "", "codex-exec-json"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im, err := formats.Pick([]byte(tt.head), tt.from)
			if err != nil || im.Name() != tt.want {
				t.Errorf("Pick = %v, %v; want %s", im, err, tt.want)
			}
		})
	}
}

// TestSourceResult: the rest of a trace as toolsim import writes it.
func TestSourceResult(t *testing.T) {
	tests := []struct {
		name, input string
		events      int
		wantErr     any // a pointer to the error type wanted, nil for none
	}{
		{"canonical without header", `{"seq":1,"t":0,"kind":"text","text":"hi"}` + "\n", 1, nil},
		{"bad line", `{"seq":1,"t":0,"kind":"text","text":"hi"}` + "\n{\n", 0, new(*formats.ImportError)},
		{"header only", `{"trace":"toolsim/v1"}` + "\n", 0, new(*formats.NoEventsError)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src, err := formats.Open(strings.NewReader(tt.input), "", importer.Options{Name: "t.jsonl"})
			if err != nil {
				t.Fatal(err)
			}
			res, err := src.Result()
			if tt.wantErr != nil {
				if !errors.As(err, tt.wantErr) {
					t.Fatalf("Result() error = %v, want a %T", err, tt.wantErr)
				}
				return
			}
			if err != nil || len(res.Events) != tt.events || res.Header.Trace != event.Version {
				t.Fatalf("Result() = %+v, %v; want %d events under the %s header", res, err, tt.events, event.Version)
			}
		})
	}
}
