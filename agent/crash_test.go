package agent

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/term"
	"github.com/toolsim/toolsim/timeline"
)

// resumingApp writes a shell script that plays an app whose resumed
// screen (started with --continue) shows resumed, lines "row ID NAME
// [STATUS]", then its prompt.
func resumingApp(t *testing.T, resumed []string) string {
	t.Helper()
	script := "#!/bin/sh\ncase \"$*\" in *--continue*) printf '%s\\n' " + shellWords(resumed) + ";; esac\necho '> ready'\nwhile IFS= read -r line; do :; done\n"
	path := filepath.Join(t.TempDir(), "app.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// shellWords quotes each line for sh.
func shellWords(lines []string) string {
	q := make([]string, len(lines))
	for i, l := range lines {
		q[i] = "'" + strings.ReplaceAll(l, "'", `'\''`) + "'"
	}
	return strings.Join(q, " ")
}

// rowProfile is fakeProfile reading "row ID NAME [STATUS]" lines as tool
// rows; a row without a status does not tell its state.
func rowProfile() *Profile {
	p := fakeProfile()
	p.Read = func(s term.Snapshot, _ []Asked) []browser.Row {
		var rows []browser.Row
		for _, line := range s.Lines {
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != "row" {
				continue
			}
			r := browser.Row{Kind: "tool", ID: f[1], Name: f[2]}
			if len(f) > 3 {
				r.Status = f[3]
			}
			rows = append(rows, r)
		}
		return rows
	}
	return p
}

// crashEngine is an engine over a resumingApp whose reference engine saw
// call_1 (grep) return and call_2 (read) start: the crash comes with
// call_2 running. pending are starts of the current run not yet applied
// (Engine.run).
func crashEngine(t *testing.T, resumed []string, pending map[string]int) *Engine {
	t.Helper()
	a, err := Start(rowProfile(), Options{Bin: resumingApp(t, resumed)}, func() time.Time { return time.Unix(0, 0) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	e := newEngine(a, Timing{Patience: 300 * time.Millisecond, Quiet: 50 * time.Millisecond, Settle: 2 * time.Second})
	maps.Copy(e.run, pending)
	oneDoneOneRunning(e, "call_1", "grep", "call_2", "read")
	return e
}

// statuses is each tool's status in tl, in order, as "ID status".
func statuses(tl *timeline.Timeline) []string {
	var out []string
	for _, it := range tl.Items {
		it.EachTool(func(t *timeline.Tool) bool {
			out = append(out, t.ID+" "+string(t.Status))
			return true
		})
	}
	return out
}

// TestEngineCrash: Crash kills the app, resumes it and makes the resumed
// screen's rows the timeline. A row whose state the screen does not tell
// takes SPEC's state after a crash (interrupted for a call that ran); a
// state the screen tells is kept, finished or not, for the crash oracle
// to judge; a row the resumed screen lacks is not made up. The starts
// of the run the crash cut are forgotten: no row is held back for them.
func TestEngineCrash(t *testing.T) {
	for _, tt := range []struct {
		name    string
		resumed []string
		pending map[string]int
		want    []string
	}{
		{"states untold", []string{"row call_1 grep", "row call_2 read"}, nil, []string{"call_1 ok", "call_2 interrupted"}},
		{"running call shown finished", []string{"row call_1 grep ok", "row call_2 read ok"}, nil, []string{"call_1 ok", "call_2 ok"}},
		{"running call gone", []string{"row call_1 grep ok"}, nil, []string{"call_1 ok"}},
		{"run cut by the crash reuses an id", []string{"row call_1 grep ok", "row call_2 read"}, map[string]int{"call_1": 1},
			[]string{"call_1 ok", "call_2 interrupted"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := crashEngine(t, tt.resumed, tt.pending)
			first := e.app.Term
			e.Crash()
			if err := e.Failed(); err != nil {
				t.Fatalf("Crash: %v", err)
			}
			if !first.Exited() {
				t.Error("the app was not killed")
			}
			if diff := cmp.Diff(tt.want, statuses(e.Timeline())); diff != "" {
				t.Errorf("tools after the crash (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNothingFollowsACrash: an event or the end of the stream after a
// crash is the engine's failure, and the timeline stays the resumed one.
func TestNothingFollowsACrash(t *testing.T) {
	for _, tt := range []struct {
		name string
		then func(*Engine)
		want string
	}{
		{"an event", func(e *Engine) { e.Apply(&event.Event{Seq: 5, Kind: event.KindToolDone, ID: "call_2", OK: true}) }, "an event after the crash"},
		{"the end", func(e *Engine) { e.Finish() }, "the end of the stream after the crash"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			e := crashEngine(t, []string{"row call_1 grep", "row call_2 read"}, nil)
			e.Crash()
			if err := e.Failed(); err != nil {
				t.Fatalf("Crash: %v", err)
			}
			tt.then(e)
			err := e.Failed()
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "nothing may follow a crash") {
				t.Fatalf("after the crash: %v, want an error with %q", err, tt.want)
			}
			if diff := cmp.Diff([]string{"call_1 ok", "call_2 interrupted"}, statuses(e.Timeline())); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}
