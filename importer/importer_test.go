package importer_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

func TestBuilderClock(t *testing.T) {
	b := importer.NewBuilder("test", importer.Options{})
	t0 := time.Date(2025, 1, 1, 10, 0, 0, 0, time.UTC)
	b.Emit(b.Clock(t0, true), event.Event{Kind: event.KindTurnStart, Role: "user"})
	b.Emit(b.Clock(t0.Add(500*time.Millisecond), true), event.Event{Kind: event.KindText, Text: "a"})
	b.Emit(b.Clock(t0.Add(200*time.Millisecond), true), event.Event{Kind: event.KindText, Text: "b"}) // earlier: clamped
	b.Emit(b.Clock(time.Time{}, false), event.Event{Kind: event.KindTurnEnd})                         // no time: synthetic step
	var got []string
	for _, ev := range b.Result().Events {
		s := ev.Kind
		for _, f := range ev.Extra {
			s += event.Kind(" " + f.Key + "=" + string(f.Value))
		}
		got = append(got, string(s)+"@"+strings.TrimSpace(time.Duration(ev.T*int64(time.Millisecond)).String()))
	}
	want := []string{"turn_start@0s", "text@500ms", "text src_t=200@500ms", "turn_end@501ms"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
	for i, ev := range b.Result().Events {
		if ev.Seq != int64(i+1) {
			t.Errorf("event %d has seq %d", i, ev.Seq)
		}
	}
}

func TestBuilderProblems(t *testing.T) {
	lenient := importer.NewBuilder("test", importer.Options{Name: "f.jsonl"})
	if err := lenient.Problem(3, "unknown type"); err != nil {
		t.Errorf("lenient import stopped: %v", err)
	}
	strict := importer.NewBuilder("test", importer.Options{Name: "f.jsonl", Strict: true})
	err := strict.Problem(7, "not JSON")
	if !errors.Is(err, importer.ErrStrict) || err.Error() != "f.jsonl:line 7: not JSON" {
		t.Errorf("strict error %v", err)
	}
	if got := lenient.Result().Problems; len(got) != 1 || got[0].String() != "line 3: unknown type" {
		t.Errorf("problems %v", got)
	}
}

func TestEachLine(t *testing.T) {
	input := "a\r\n\nb\n" + strings.Repeat("x", importer.MaxLine+10) + "\nc"
	var lines []string
	var long []int
	err := importer.EachLine(strings.NewReader(input), func(n int, line []byte) error {
		lines = append(lines, string(line))
		return nil
	}, func(n int) error {
		long = append(long, n)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "", "b", "c"}, lines); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]int{4}, long); diff != "" {
		t.Errorf("too-long lines (-want +got):\n%s", diff)
	}
}

func TestNoteClock(t *testing.T) {
	synth := importer.NewBuilder("x", importer.Options{})
	synth.SetMeta(map[string]any{"a": 1})
	synth.Emit(synth.Clock(time.Time{}, false), event.Event{Kind: event.KindTurnEnd})
	synth.NoteClock()
	if got := string(synth.Result().Header.Meta); got != `{"a":1,"clock":"synthetic"}` {
		t.Errorf("synthetic clock meta = %s", got)
	}
	if !synth.Result().Header.SyntheticClock() {
		t.Error("Header.SyntheticClock() = false on a synthetic trace")
	}
	real := importer.NewBuilder("x", importer.Options{})
	real.Emit(real.Clock(time.Unix(5, 0), true), event.Event{Kind: event.KindTurnEnd})
	real.Emit(real.Clock(time.Time{}, false), event.Event{Kind: event.KindTurnEnd})
	real.NoteClock()
	if real.Result().Header.Meta != nil || real.Result().Header.SyntheticClock() {
		t.Errorf("a trace with source time got meta %s", real.Result().Header.Meta)
	}
}

func TestLines(t *testing.T) {
	if got := importer.Lines("x.jsonl", nil); got != nil {
		t.Errorf("Lines of no problem = %q, want none", got)
	}
	got := importer.Lines("x.jsonl", []importer.Problem{{Line: 3, Reason: "unknown record"}})
	if len(got) != 2 || !strings.HasPrefix(got[0], "x.jsonl:") || got[1] != "x.jsonl: 1 problems (lines skipped or partly mapped)" {
		t.Errorf("Lines = %q", got)
	}
}
