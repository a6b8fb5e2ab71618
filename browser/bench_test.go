package browser_test

import (
	"os"
	"testing"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/event"
)

// page starts a browser on the test page (testdata/page) with query, or
// skips without Chromium.
func start(tb testing.TB, dir, query string) *browser.Browser {
	tb.Helper()
	if browser.ExecPath() == "" {
		tb.Skip("chromium not installed (apt-get install -y chromium, or set $CHROMIUM): browser test skipped")
	}
	if _, err := os.Stat(dir + "/index.html"); err != nil {
		tb.Skipf("%s not built: %v", dir, err)
	}
	b, err := browser.Start(browser.Options{Page: dir, Query: query})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(b.Close)
	return b
}

// BenchmarkAssistantUI applies a five-event turn to the assistant-ui
// example's page (examples/assistant-ui/dist, built by npm run build),
// settling and reading the rows after each event, then resets it.
func BenchmarkAssistantUI(b *testing.B) {
	br := start(b, "../examples/assistant-ui/dist", "")
	evs := []event.Event{
		{Seq: 1, Kind: event.KindTurnStart, Role: "assistant"},
		{Seq: 2, T: 1, Kind: event.KindToolStart, ID: "a", Name: "search"},
		{Seq: 3, T: 2, Kind: event.KindToolStart, ID: "b", Name: "read"},
		{Seq: 4, T: 3, Kind: event.KindToolDone, ID: "a", OK: true},
		{Seq: 5, T: 4, Kind: event.KindTurnEnd},
	}
	e := browser.NewEngine(br)
	b.ResetTimer()
	for b.Loop() {
		e = browser.NewEngine(br)
		for i := range evs {
			e.Apply(&evs[i])
		}
	}
	if err := e.Failed(); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N*len(evs))/b.Elapsed().Seconds(), "events/s")
}
