package tui_test

import (
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolsim/toolsim"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/tui"
)

// goldenDir holds the player's goldens: the model's view at chosen steps.
var goldenDir = filepath.Join("..", "golden", "tui")

// updateGoldens reports whether -update was given. teatest's golden
// package registers the flag; this package reads it rather than
// registering its own.
func updateGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// assertGolden compares got with golden/tui/NAME.golden (-want +got).
func assertGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(goldenDir, name+".golden")
	if updateGoldens() {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// showEscapes makes a styled view readable in a golden file.
func showEscapes(s string) string { return strings.ReplaceAll(s, "\x1b", `\x1b`) }

var sgr = regexp.MustCompile("\x1b\\[[0-9;:]*m")

// stripSGR removes colour and attribute sequences.
func stripSGR(s string) string { return sgr.ReplaceAllString(s, "") }

// scenarioEvents imports the trace of scenarios/NAME.txtar.
func scenarioEvents(t testing.TB, name string) []event.Event {
	t.Helper()
	return importAll(t, name, scenarioInput(t, name))
}

// scenarioInput returns the input of scenarios/NAME.txtar: the file its
// first `exec toolsim replay` line reads, in whatever format.
func scenarioInput(t testing.TB, name string) []byte {
	t.Helper()
	data, err := fs.ReadFile(toolsim.Scenarios, "scenarios/"+name+".txtar")
	if err != nil {
		t.Fatal(err)
	}
	ar := txtar.Parse(data)
	input := ""
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if strings.HasPrefix(line, "exec toolsim replay ") {
			fields := strings.Fields(line)
			input = fields[len(fields)-1]
			break
		}
	}
	for _, f := range ar.Files {
		if f.Name == input {
			return f.Data
		}
	}
	t.Fatalf("%s: no %q in the archive", name, input)
	return nil
}

// scenarioNames lists the embedded scenarios.
func scenarioNames(t testing.TB) []string {
	t.Helper()
	entries, err := fs.ReadDir(toolsim.Scenarios, "scenarios")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".txtar"))
	}
	return names
}

// importAll imports a trace in any format.
func importAll(t testing.TB, name string, data []byte) []event.Event {
	t.Helper()
	im, err := formats.Detect(data[:min(len(data), formats.HeadSize)])
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	res, err := im.Import(bytes.NewReader(data), importer.Options{Name: name})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res.Events
}

// plainRender is `toolsim replay` of the first n events at a width: the
// input has ended when n is all of them.
func plainRender(evs []event.Event, n, width int) string {
	e := engine.New(engine.Options{})
	for i := range evs[:n] {
		e.Apply(&evs[i])
	}
	return render.Render(e.Timeline(), render.Options{Width: width, Ended: n == len(evs)})
}

// renderLines splits a render into its lines.
func renderLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// player is a model running in a teatest program.
type player struct {
	t     *testing.T
	tm    *teatest.TestModel
	sizes chan struct{} // closed once the initial window sizes arrived
}

// probeMsg asks the program's filter to look at the model, on the program's
// goroutine, between two messages.
type probeMsg struct {
	fn    func(*tui.Model)
	reply chan struct{}
}

// startPlayer runs a model at a fixed terminal size and colour profile.
func startPlayer(t *testing.T, m *tui.Model, w, h int, p colorprofile.Profile) *player {
	t.Helper()
	pl := &player{t: t, sizes: make(chan struct{})}
	seen := 0
	filter := func(model tea.Model, msg tea.Msg) tea.Msg {
		switch msg := msg.(type) {
		case tea.WindowSizeMsg:
			if seen++; seen == 2 { // one from teatest, one from the program
				close(pl.sizes)
			}
		case probeMsg:
			msg.fn(model.(*tui.Model))
			close(msg.reply)
			return nil
		}
		return msg
	}
	pl.tm = teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
		teatest.WithProgramOptions(tea.WithColorProfile(p), tea.WithFilter(filter)))
	t.Cleanup(func() {
		pl.tm.Quit()
		pl.tm.WaitFinished(t, teatest.WithFinalTimeout(30*time.Second))
		m.Close()
	})
	<-pl.sizes
	return pl
}

// look runs fn on the model between messages, once everything sent before
// has been handled.
func (pl *player) look(fn func(*tui.Model)) {
	reply := make(chan struct{})
	pl.tm.Send(probeMsg{fn: fn, reply: reply})
	<-reply
}

// screen returns the model's view now.
func (pl *player) screen() string {
	var s string
	pl.look(func(m *tui.Model) { s = m.View().Content })
	return s
}

// pos returns the model's current frame.
func (pl *player) pos() int {
	var n int
	pl.look(func(m *tui.Model) { n = m.Pos() })
	return n
}

// keys presses keys: names as tea.KeyPressMsg.String gives them
// ("right", "shift+left", "space", "enter") or single characters.
func (pl *player) keys(names ...string) {
	for _, k := range names {
		pl.tm.Send(keyMsg(k))
	}
}

// typeText types text, one key per character.
func (pl *player) typeText(s string) { pl.tm.Type(s) }

var namedKeys = map[string]tea.KeyPressMsg{
	"right":       {Code: tea.KeyRight},
	"left":        {Code: tea.KeyLeft},
	"shift+right": {Code: tea.KeyRight, Mod: tea.ModShift},
	"shift+left":  {Code: tea.KeyLeft, Mod: tea.ModShift},
	"home":        {Code: tea.KeyHome},
	"end":         {Code: tea.KeyEnd},
	"enter":       {Code: tea.KeyEnter},
	"esc":         {Code: tea.KeyEscape},
	"space":       {Code: tea.KeySpace, Text: " "},
	"pgup":        {Code: tea.KeyPgUp},
	"pgdown":      {Code: tea.KeyPgDown},
	"backspace":   {Code: tea.KeyBackspace},
}

func keyMsg(name string) tea.KeyPressMsg {
	if k, ok := namedKeys[name]; ok {
		return k
	}
	r := []rune(name)[0]
	return tea.KeyPressMsg{Code: r, Text: name}
}

// checkScreen checks that a view fills the terminal exactly: h rows, each
// w cells wide once styling is stripped.
func checkScreen(t *testing.T, view string, w, h int) {
	t.Helper()
	rows := strings.Split(view, "\n")
	if len(rows) != h {
		t.Errorf("view has %d rows, want %d", len(rows), h)
	}
	for i, r := range rows {
		if got := render.Width(stripSGR(r)); got != w {
			t.Errorf("row %d is %d cells wide, want %d: %q", i, got, w, r)
		}
	}
}
