package main

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/browsertest"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/report"
	"github.com/toolsim/toolsim/timeline"
	"github.com/toolsim/toolsim/view"
)

// sharedTraceFiles lists every captured trace: ../shared/traces from the
// repository root.
func sharedTraceFiles(t *testing.T) []string {
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../../shared/traces"
	}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "README.md" {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Skipf("no shared traces in %s (%v)", dir, err)
	}
	return files
}

// lanesWant are the tool calls of a trace as the reference engine ends
// it: id and final status, in display order.
func lanesWant(evs []event.Event) [][2]string {
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	e.Finish()
	var out [][2]string
	for _, it := range e.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			out = append(out, [2]string{view.Clean(t.ID), string(t.Status)})
			return true
		})
	}
	return out
}

// renderAfter is the plain render at a scrubber position, as the page
// shows it: after event at, or after the end-of-stream rule when at is
// len(evs).
func renderAfter(evs []event.Event, at int, synthetic bool) string {
	e := engine.New(engine.Options{})
	for i := range evs[:min(at+1, len(evs))] {
		e.Apply(&evs[i])
	}
	if at == len(evs) {
		e.Finish()
	}
	return view.Clean(render.Render(e.Timeline(), render.Options{Width: 80, SyntheticClock: synthetic}))
}

// TestViewCommand: toolsim view writes a page, names it after the trace
// by default, and rejects bad usage.
func TestViewCommand(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "x.jsonl")
	os.WriteFile(trace, []byte(`{"seq":1,"t":0,"kind":"tool_start","id":"a","name":"Read","args":{}}`+"\n"), 0o644)
	c, out, errOut := testCLI(nil)
	t.Chdir(dir)
	if code := c.run([]string{"view", trace}); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if st, err := os.Stat(filepath.Join(dir, "x.html")); err != nil || st.Size() < 1000 {
		t.Fatalf("x.html not written: %v", err)
	}
	if !strings.Contains(out.String(), "wrote x.html (1 events)") {
		t.Errorf("stdout: %s", out)
	}
	// Flags may follow the file, as the usage line reads.
	c, out, errOut = testCLI(nil)
	if code := c.run([]string{"view", trace, "-o", "y.html", "--width", "60"}); code != exitOK || !strings.Contains(out.String(), "wrote y.html") {
		t.Fatalf("flags after FILE: exit %d\n%s%s", code, out, errOut)
	}
	for _, args := range [][]string{{"view"}, {"view", "a", "b"}, {"view", "--width", "3", trace}} {
		c, _, _ := testCLI(nil)
		if code := c.run(args); code != exitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, exitUsage)
		}
	}
	c, _, errOut = testCLI(nil)
	if code := c.run([]string{"view", filepath.Join(dir, "missing.jsonl")}); code != exitUsage || !strings.Contains(errOut.String(), "missing.jsonl") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
}

// TestVersion: the version line names the module version, the revision
// and its state.
func TestVersion(t *testing.T) {
	c, out, _ := testCLI(nil)
	if code := c.run([]string{"--version"}); code != exitOK || !strings.HasPrefix(out.String(), "toolsim ") {
		t.Fatalf("exit %d: %q", code, out)
	}
	c, out2, _ := testCLI(nil)
	if c.run([]string{"version"}); out2.String() != out.String() {
		t.Errorf("version %q != --version %q", out2, out)
	}
}

// TestViewSharedTracesInBrowser: every captured trace gives a page that
// Chromium loads without a script error, with one lane per tool call in
// its final status, a marker per diagnostic, a line per cancel and turn
// end, and a scrubber that shows the render after any event.
func TestViewSharedTracesInBrowser(t *testing.T) {
	files := sharedTraceFiles(t)
	b := browsertest.New(t, 1400, 1000)
	dir := t.TempDir()
	for _, f := range files {
		t.Run(filepath.Base(filepath.Dir(f))+"/"+filepath.Base(f), func(t *testing.T) {
			page := filepath.Join(dir, strings.ReplaceAll(f[len(filepath.Dir(filepath.Dir(f))):], "/", "_")+".html")
			c, out, errOut := testCLI(nil)
			if code := c.run([]string{"view", "-o", page, f}); code != exitOK {
				t.Fatalf("toolsim view: exit %d\n%s%s", code, out, errOut)
			}
			h, evs, _, err := c.readTrace(f, inputFlags{})
			if err != nil {
				t.Fatal(err)
			}
			b.Load(page, `body[data-ready="1"]`)
			checkPage(t, b, evs, h.SyntheticClock())
		})
	}
	b.Screenshot(filepath.Join(dir, "last.png"))
}

// checkPage checks a loaded page against the trace it shows.
func checkPage(t *testing.T, b *browsertest.Browser, evs []event.Event, synthetic bool) {
	t.Helper()
	lanes := browsertest.Eval[[][2]string](b, `[...document.querySelectorAll("g.lane.tool")].map(g => [g.dataset.tool, g.dataset.status])`)
	if diff := cmp.Diff(lanesWant(evs), lanes, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("lanes (-want +got):\n%s", diff)
	}
	bars := browsertest.Eval[int](b, `document.querySelectorAll("g.lane.tool rect.bar").length`)
	if bars != len(lanes) {
		t.Errorf("%d bars for %d lanes", bars, len(lanes))
	}
	var cancels, turnEnds int
	for _, ev := range evs {
		switch ev.Kind {
		case event.KindCancel:
			cancels++
		case event.KindTurnEnd:
			turnEnds++
		}
	}
	marks := browsertest.Eval[[]int](b, `[".vline.cancel", ".vline.turn-end", ".marker.diag"].map(s => document.querySelectorAll(s).length)`)
	diags := len(finalTimeline(evs).Diagnostics)
	if want := []int{cancels, turnEnds, diags}; !cmp.Equal(want, marks) {
		t.Errorf("cancel lines, turn-end lines, diagnostic markers = %v, want %v", marks, want)
	}
	// The scrubber starts at the end, then shows the render after the
	// event it is moved to, and names that event.
	for _, at := range []int{len(evs), 0, len(evs) / 2, len(evs) - 1} {
		if at != len(evs) {
			browsertest.Eval[bool](b, `(s => { s.value = `+itoa(at)+`; s.dispatchEvent(new Event("input")); return true })(document.getElementById("scrub"))`)
		}
		got := browsertest.Eval[[]string](b, `[document.getElementById("render").textContent, document.getElementById("event").dataset.seq]`)
		if want := renderAfter(evs, at, synthetic); got[0] != want {
			t.Errorf("render after event %d:\n%s\nwant:\n%s", at, got[0], want)
		}
		if wantSeq := ""; at < len(evs) && got[1] != itoa(int(evs[at].Seq)) || at == len(evs) && got[1] != wantSeq {
			t.Errorf("after moving to %d the event shown is seq %q", at, got[1])
		}
	}
	if len(lanes) > 0 {
		// A diagnostic marker may cover the bar's middle: click the bar itself.
		browsertest.Eval[bool](b, `document.querySelector("g.lane.tool rect.bar").dispatchEvent(new MouseEvent("click"))`)
		shown := browsertest.Eval[[]string](b, `[document.getElementById("details-body").dataset.tool, document.getElementById("details-body").textContent]`)
		if shown[0] != lanes[0][0] || !strings.Contains(shown[1], "start event") {
			t.Errorf("clicking the first bar shows %q:\n%s", shown[0], shown[1])
		}
	}
}

func finalTimeline(evs []event.Event) *timeline.Timeline {
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	e.Finish()
	return e.Timeline()
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestFuzzFailureInBrowser: a campaign against a broken engine fails; its
// JUnit report validates and its JSON names the oracle and the command;
// check --html on the shrunk trace marks the failing event with the
// oracle's diff and both renders, and view shows the scenario.
func TestFuzzFailureInBrowser(t *testing.T) {
	dir := t.TempDir()
	junit, jsonl := filepath.Join(dir, "fuzz.xml"), filepath.Join(dir, "fuzz.jsonl")
	c, out, errOut := testCLI(newSpinner)
	if code := c.run([]string{"fuzz", "--seeds", "300", "--workers", "1", "--out", dir, "--junit", junit, "--json", jsonl}); code != exitFail {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFail, out, errOut)
	}
	m := regexpFind(t, out.String(), `reproduce: toolsim check (\S+seed-(\d+)\.min\.jsonl)`)
	minTrace := m[1]
	oracle := regexpFind(t, out.String(), `FAIL: seed \d+: after seq \d+: ([a-z-]+):`)[1]
	xml, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	if err := report.ValidateJUnit(xml); err != nil {
		t.Errorf("fuzz JUnit: %v\n%s", err, xml)
	}
	// One failing testcase per finding, each named by its signature.
	findings := strings.Count(out.String(), "\nFAIL: seed ")
	sig := regexpFind(t, out.String(), `\nsignature: (.+) \(\d+ failing seeds?\)`)[1]
	if !bytes.Contains(xml, []byte("reproduce: toolsim check "+minTrace)) || !bytes.Contains(xml, []byte(fmt.Sprintf(`failures="%d"`, findings))) {
		t.Errorf("fuzz JUnit lacks the %d findings or the reproduce command:\n%s", findings, xml)
	}
	js, _ := os.ReadFile(jsonl)
	for _, want := range []string{`"status":"fail"`, `"oracle":"` + oracle + `"`, `"shrunk":"` + minTrace + `"`, `"reproduce":"toolsim check ` + minTrace + `"`, `"signature":"` + sig + `"`} {
		if !bytes.Contains(js, []byte(want)) {
			t.Errorf("fuzz JSON lacks %s:\n%s", want, js)
		}
	}

	page, viewPage := filepath.Join(dir, "fail.html"), filepath.Join(dir, "scenario.html")
	c2, out2, _ := testCLI(newSpinner)
	if code := c2.run([]string{"check", "--html", page, "--junit", filepath.Join(dir, "check.xml"), minTrace}); code != exitFail || !strings.Contains(out2.String(), "html: "+page) {
		t.Fatalf("check --html: exit %d\n%s", code, out2)
	}
	checkXML, _ := os.ReadFile(filepath.Join(dir, "check.xml"))
	if err := report.ValidateJUnit(checkXML); err != nil {
		t.Errorf("check JUnit: %v\n%s", err, checkXML)
	}
	c3, _, _ := testCLI(nil)
	if code := c3.run([]string{"view", "-o", viewPage, minTrace}); code != exitOK {
		t.Fatalf("view of the shrunk trace: exit %d", code)
	}
	h, evs, _, err := c3.readTrace(minTrace, inputFlags{})
	if err != nil {
		t.Fatal(err)
	}

	b := browsertest.New(t, 1400, 1000)
	b.Load(viewPage, `body[data-ready="1"]`)
	checkPage(t, b, evs, h.SyntheticClock())
	b.Load(page, `body[data-ready="1"]`)
	got := browsertest.Eval[map[string]string](b, `(() => { const q = (s) => document.querySelector(s); return {
		visible: String(!q("#failure").hidden), title: q("#failure-title").textContent, diff: q("#failure-diff").textContent,
		repro: q("#failure-repro").textContent, marked: q(".vline.failure") ? q(".vline.failure").dataset.ev : "",
		step: q("#render").dataset.step, engine: q("#engine-render").textContent, reference: q("#reference-render").textContent } })()`)
	if got["visible"] != "true" || !strings.Contains(got["title"], "oracle "+oracle) || !strings.Contains(got["diff"], "(-want +got)") {
		t.Errorf("failure panel: %q", got)
	}
	if got["repro"] != "toolsim check "+minTrace || got["marked"] == "" || got["marked"] != got["step"] {
		t.Errorf("failing event marked at %q, scrubber at %q, reproduce %q", got["marked"], got["step"], got["repro"])
	}
	if got["engine"] == "" || got["engine"] == got["reference"] {
		t.Errorf("engine and reference renders not both shown:\nengine:\n%s\nreference:\n%s", got["engine"], got["reference"])
	}
	shot := filepath.Join(dir, "failure.png")
	b.Screenshot(shot)
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil || img.Bounds().Dx() < 800 {
		t.Errorf("screenshot: %v %v", err, img)
	}
	if d := os.Getenv("TOOLSIM_SCREENSHOTS"); d != "" {
		data, _ := os.ReadFile(shot)
		os.WriteFile(filepath.Join(d, "view-failure.png"), data, 0o644)
	}
}
