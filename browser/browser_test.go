package browser_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

var turn = []event.Event{
	{Seq: 1, Kind: event.KindTurnStart, Role: "assistant"},
	{Seq: 2, T: 1, Kind: event.KindToolStart, ID: "a", Name: "search"},
	{Seq: 3, T: 2, Kind: event.KindToolStart, ID: "b", Name: "read"},
	{Seq: 4, T: 5, Kind: event.KindToolDone, ID: "a", OK: false},
	{Seq: 5, T: 6, Kind: event.KindCancel},
}

// statuses lists the tools of a timeline as "id name status".
func statuses(tl *timeline.Timeline) []string {
	var out []string
	for _, it := range tl.Items {
		out = append(out, it.Tool.ID+" "+it.Tool.Name+" "+string(it.Tool.Status))
	}
	return out
}

func TestEngineReadsRowsAfterEachEvent(t *testing.T) {
	b := start(t, "testdata/page", "")
	e := browser.NewEngine(b)
	want := [][]string{nil, {"a search running"}, {"a search running", "b read running"},
		{"a search failed", "b read running"}, {"a search failed", "b read interrupted"}}
	for i := range turn {
		e.Apply(&turn[i])
		if d := cmp.Diff(want[i], statuses(e.Timeline())); d != "" {
			t.Errorf("after seq %d (-want +got):\n%s", turn[i].Seq, d)
		}
	}
	if err := e.Failed(); err != nil {
		t.Fatal(err)
	}
	if got := e.Timeline().Items[1].Tool.StartT; got != 2 {
		t.Errorf("b's start_t = %d, want 2 (the clock when its row first showed)", got)
	}
	e = browser.NewEngine(b)
	if n := len(e.Timeline().Items); n != 0 || e.Failed() != nil {
		t.Errorf("after reset: %d items, error %v; want none", n, e.Failed())
	}
}

func TestPageFailures(t *testing.T) {
	tests := []struct{ bug, want string }{
		{"console", "console.error: Warning: Encountered two children with the same key"},
		{"status", `unknown status "spinning"`},
	}
	for _, tt := range tests {
		t.Run(tt.bug, func(t *testing.T) {
			e := browser.NewEngine(start(t, "testdata/page", "bug="+tt.bug))
			e.Apply(&turn[1])
			err := e.Failed()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Failed() = %v, want an error naming %q", err, tt.want)
			}
			e.Apply(&turn[2]) // a failed engine stays failed, and does nothing
			if e.Failed() != err {
				t.Errorf("the failure changed to %v", e.Failed())
			}
		})
	}
}

func TestStartRefusesAPageWithoutTheContract(t *testing.T) {
	if browser.ExecPath() == "" {
		t.Skip("chromium not installed: browser test skipped")
	}
	if _, err := browser.Start(browser.Options{Page: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "index.html") {
		t.Errorf("Start on an empty directory: %v, want an error naming index.html", err)
	}
}

func TestTimelineRefusesUnknownRows(t *testing.T) {
	tests := []struct {
		name string
		row  browser.Row
		want string
	}{
		{"kind", browser.Row{Kind: "spinner"}, `row 0: unknown kind "spinner"`},
		{"status", browser.Row{Kind: "tool", ID: "a", Status: "busy"}, `row 0 (tool "a"): unknown status "busy"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := browser.Timeline([]browser.Row{tt.row}, 0, map[string]int64{})
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("got %v, want %q", err, tt.want)
			}
		})
	}
}
