package view

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/internal/browsertest"
	"github.com/toolsim/toolsim/internal/race"
	"github.com/toolsim/toolsim/render"
)

// TestLargePageInBrowser: the page of a 100,000-event trace loads in
// Chromium, draws only the lanes near the visible ones, follows scrolling,
// and its scrubber shows the right render anywhere in the trace.
func TestLargePageInBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and loads a 100,000-event page")
	}
	if race.Enabled {
		t.Skip("builds a 100,000-event page on one goroutine, ten times slower under -race (the other browser tests cover chromedp under it): make test runs it after, without the detector")
	}
	b := browsertest.New(t, 1400, 1000)
	evs := longTrace(100_000)
	var buf bytes.Buffer
	if err := Write(&buf, evs, Options{Title: "long"}); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "long.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	b.Load(page, `body[data-ready="1"]`)
	lanes := browsertest.Eval[int](b, `toolsimView.model.tools.length`)
	drawn := browsertest.Eval[int](b, `document.querySelectorAll("g.lane").length`)
	if lanes < 10_000 || drawn > 400 || drawn < 20 {
		t.Errorf("%d lanes, %d drawn: want only those near the view drawn", lanes, drawn)
	}
	// Scrolling to the bottom draws the last lanes.
	last := browsertest.Eval[string](b, `(() => { const s = document.getElementById("scroll"); s.scrollTop = s.scrollHeight;
		s.dispatchEvent(new Event("scroll")); toolsimView.redraw(); const g = [...document.querySelectorAll("g.lane.tool")].pop(); return g.dataset.lane })()`)
	if last != strconv.Itoa(lanes-1) {
		t.Errorf("after scrolling to the bottom the last lane drawn is %s, want %d", last, lanes-1)
	}
	e := engine.New(engine.Options{})
	applied := 0
	for _, at := range []int{10, 49_999, 50_000, 99_999} {
		for ; applied <= at; applied++ {
			e.Apply(&evs[applied])
		}
		want := Clean(render.Render(e.Timeline(), render.Options{Width: 80}))
		got := browsertest.Eval[[]string](b, `(s => { s.value = `+strconv.Itoa(at)+`; s.dispatchEvent(new Event("input"));
			const r = document.getElementById("render"), m = r.querySelector("mark");
			return [toolsimView.renderAt(`+strconv.Itoa(at)+`), r.dataset.window, m ? m.textContent : "", String(r.textContent.split("\n").length)] })(document.getElementById("scrub"))`)
		if got[0] != want {
			t.Errorf("render after event %d differs: got %d bytes, want %d", at, len(got[0]), len(want))
		}
		// The panel shows a window around the change, which is part of
		// the render.
		long := strings.Count(want, "\n") > 3000
		if lines, _ := strconv.Atoi(got[3]); (got[1] == "1") != long || lines > 4000 || !strings.Contains(want, got[2]) {
			t.Errorf("after event %d the panel shows %s lines (window %q), marked %q", at, got[3], got[1], got[2])
		}
	}
	// Going back is served from the checkpoints.
	if got := browsertest.Eval[string](b, `toolsimView.seek(10), document.getElementById("pos").textContent`); got == "" {
		t.Error("no position shown after moving back")
	}
	b.Screenshot(filepath.Join(t.TempDir(), "long.png"))
}
