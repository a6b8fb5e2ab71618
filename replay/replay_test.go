package replay_test

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/replay"
)

// events yields evs, then err.
type events struct {
	evs []event.Event
	err error
}

func (s *events) Next(ev *event.Event) error {
	if len(s.evs) == 0 {
		return s.err
	}
	*ev, s.evs = s.evs[0], s.evs[1:]
	return nil
}

func trace() []event.Event {
	return []event.Event{
		{Seq: 1, T: 0, Kind: event.KindToolStart, ID: "a", Name: "read"},
		{Seq: 2, T: 5, Kind: event.KindToolStart, ID: "b", Name: "grep"},
		{Seq: 3, T: 9, Kind: event.KindToolDone, ID: "a", OK: true},
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name     string
		opts     replay.Options
		out      []string // substrings of stdout, in order
		leftOpen bool     // stderr names b as still live
	}{
		{"final render", replay.Options{Width: 60}, []string{"read", "grep"}, true},
		{"frames", replay.Options{Width: 60, Frames: true}, []string{"--- seq 1 tool_start t=0", "--- seq 2 tool_start t=5", "--- seq 3 tool_done t=9"}, true},
		{"finish", replay.Options{Width: 60, Finish: true}, []string{"read"}, false},
		{"json", replay.Options{Width: 60, JSON: true}, []string{`"items"`}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, diag strings.Builder
			err := replay.Run(&out, &diag, &events{evs: trace(), err: io.EOF}, engine.New(engine.Options{}), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			rest := out.String()
			for _, want := range tt.out {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in order):\n%s", want, out.String())
				}
				rest = rest[i+len(want):]
			}
			if got := strings.Contains(diag.String(), "1 tools still live [b]"); got != tt.leftOpen {
				t.Errorf("stderr %q: names b still live = %v, want %v", diag.String(), got, tt.leftOpen)
			}
		})
	}
}

func TestRunStopsAtTheTraceError(t *testing.T) {
	bad := errors.New("trace.jsonl:3: bad event")
	var out, diag strings.Builder
	err := replay.Run(&out, &diag, &events{evs: trace()[:2], err: bad}, engine.New(engine.Options{}), replay.Options{Width: 60})
	if !errors.Is(err, bad) || out.Len() != 0 {
		t.Errorf("Run = %v with stdout %q; want the trace's error and no render", err, out.String())
	}
}
