package tui_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/tui"
)

// lineReader returns a few lines per Read (one if lines is 0), as a pipe
// from a slow agent does.
type lineReader struct {
	data  []byte
	lines int
}

func (r *lineReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	end := 0
	for k := 0; k < max(r.lines, 1) && end < len(r.data); k++ {
		i := bytes.IndexByte(r.data[end:], '\n')
		if i < 0 {
			end = len(r.data)
			break
		}
		end += i + 1
	}
	n := copy(p, r.data[:end])
	r.data = r.data[n:]
	return n, nil
}

// feedAll runs a feed over data and applies its batches as a live model
// does. It returns the events, the last batch and how many batches came.
func feedAll(f *tui.Feed, r io.Reader) ([]event.Event, tui.EventsMsg, int) {
	var evs []event.Event
	var last tui.EventsMsg
	n := 0
	f.Run(r, func(msg tea.Msg) {
		last = msg.(tui.EventsMsg)
		evs = append(evs[:last.From], last.Events...)
		n++
	})
	return evs, last, n
}

// stampedImport imports data whole, with lines stamped 1 ms apart as a
// Feed without a clock stamps them.
func stampedImport(t *testing.T, name string, data []byte) []event.Event {
	t.Helper()
	im, err := formats.Detect(data[:min(len(data), formats.HeadSize)])
	if err != nil {
		t.Fatal(err)
	}
	stamps := make([]int64, bytes.Count(data, []byte("\n"))+1)
	for i := range stamps {
		stamps[i] = int64(i)
	}
	res, err := im.Import(bytes.NewReader(data), importer.Options{Name: name, Stamps: stamps})
	if err != nil {
		t.Fatal(err)
	}
	return res.Events
}

// TestFeedMatchesImport: fed line by line, every scenario's input — the
// canonical traces decoded as they come, the other formats re-imported —
// ends with the events a whole import gives.
func TestFeedMatchesImport(t *testing.T) {
	for _, name := range scenarioNames(t) {
		t.Run(name, func(t *testing.T) {
			data := scenarioInput(t, name)
			got, last, batches := feedAll(&tui.Feed{}, &lineReader{data: data})
			if last.Err != nil || !last.Done {
				t.Fatalf("last batch: done %v, err %v", last.Done, last.Err)
			}
			if diff := cmp.Diff(stampedImport(t, name, data), got); diff != "" {
				t.Errorf("fed events (-import +feed):\n%s", diff)
			}
			if lines := bytes.Count(data, []byte("\n")); lines > 3 && batches < 3 {
				t.Errorf("%d lines came in %d batches: not as they arrived", lines, batches)
			}
		})
	}
}

// TestFeedErrors: what a live input that is not a trace gives.
func TestFeedErrors(t *testing.T) {
	tests := []struct {
		name     string
		from     string
		input    string
		wantErr  string
		wantEvs  int
		problems int
	}{
		{name: "empty", input: "", wantErr: event.ErrEmpty.Error()},
		{name: "blank lines", input: "\n\n", wantErr: event.ErrEmpty.Error()},
		{name: "not a trace", input: "hello\nworld\n", wantErr: "cannot detect the format"},
		{name: "unknown format", from: "nope", input: "{}\n", wantErr: `unknown format "nope"`},
		// A bad line is shown as a problem as it comes, and the run still
		// ends in an error (watch exits non-zero, as watch --plain does).
		{name: "a bad line is a problem and an error", input: `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}` + "\nnot json\n" + `{"seq":2,"t":1,"kind":"turn_end"}` + "\n", wantErr: "invalid lines: 1 (the first: stdin:line 2: malformed JSON", wantEvs: 2, problems: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, last, _ := feedAll(&tui.Feed{From: tt.from}, strings.NewReader(tt.input))
			switch {
			case tt.wantErr == "" && last.Err != nil:
				t.Errorf("err %v", last.Err)
			case tt.wantErr != "" && (last.Err == nil || !strings.Contains(last.Err.Error(), tt.wantErr)):
				t.Errorf("err %v, want one containing %q", last.Err, tt.wantErr)
			}
			if len(evs) != tt.wantEvs || len(last.Problems) != tt.problems {
				t.Errorf("%d events, problems %q; want %d events, %d problems", len(evs), last.Problems, tt.wantEvs, tt.problems)
			}
		})
	}
}

// TestFeedReadError: a failing input ends the feed with the error.
func TestFeedReadError(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}`+"\n"), errReader{})
	evs, last, _ := feedAll(&tui.Feed{}, r)
	if len(evs) != 1 || !errors.Is(last.Err, errBroken) {
		t.Errorf("%d events, err %v", len(evs), last.Err)
	}
}

var errBroken = errors.New("broken pipe")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }
