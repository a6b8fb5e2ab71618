package tui_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/tui"
)

// sharedTraces lists the real captured traces: ../shared/traces from the
// repository root, or $TOOLSIM_TRACES.
func sharedTraces(t *testing.T) []string {
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../shared/traces"
	}
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(path, ".md") {
			files = append(files, path)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Skipf("real traces not found at %s (set TOOLSIM_TRACES): %v", dir, err)
	}
	return files
}

// exercise plays a trace: the last frame shows the plain render, and the
// view fills the terminal on the way through the keys.
func exercise(t *testing.T, m *tui.Model, evs []event.Event) {
	const w, h = 120, 40
	pl := startPlayer(t, m, w, h, colorprofile.ANSI256)
	for _, keys := range [][]string{{"end"}, {"home"}, {"shift+right"}, {"enter"}, {"?"}, {"x"}, {"end", "left"}, {"end"}} {
		pl.keys(keys...)
		checkScreen(t, pl.screen(), w, h)
	}
	var lines []string
	width := 0
	pl.look(func(m *tui.Model) { lines, width = m.TimelineLines(), m.TimelineWidth() })
	want := renderLines(plainRender(evs, len(evs), width))
	if len(want) > len(lines) { // a tall render: the pane shows its tail
		want = append([]string{"  ↑ more above (pgup)"}, want[len(want)-len(lines)+1:]...)
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("last frame (-plain render +pane):\n%s", diff)
	}
}

// TestSharedTraces plays, and watches, every real captured trace.
func TestSharedTraces(t *testing.T) {
	for _, path := range sharedTraces(t) {
		t.Run(filepath.Base(filepath.Dir(path))+"/"+filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			evs := importAll(t, path, data)
			exercise(t, tui.New(evs, tui.Options{Title: path}), evs)

			fed, last, _ := feedAll(&tui.Feed{}, &lineReader{data: data, lines: 16})
			if last.Err != nil {
				t.Fatalf("watch: %v", last.Err)
			}
			if diff := cmp.Diff(stampedImport(t, path, data), fed); diff != "" {
				t.Fatalf("watched events (-import +feed):\n%s", diff)
			}
			live := tui.New(nil, tui.Options{Title: "stdin", Live: true})
			pl := startPlayer(t, live, 120, 40, colorprofile.ASCII)
			pl.tm.Send(tui.EventsMsg{Events: fed, Done: true})
			if got := pl.pos(); got != len(fed) {
				t.Errorf("watch ends on frame %d, want %d", got, len(fed))
			}
		})
	}
}

// TestSimulatorTraces plays simulator traces with checkpoints in play.
func TestSimulatorTraces(t *testing.T) {
	for _, seed := range []uint64{1, 2} {
		evs := sim.Synthetic(seed, sim.SyntheticOptions{Events: 9000, CancelEvery: 3, BatchIDs: seed == 2})
		m := tui.New(evs, tui.Options{Store: tui.StoreOptions{Every: 1024}})
		exercise(t, m, evs)
	}
}
