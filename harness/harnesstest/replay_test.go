package harnesstest_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/harnesstest"
	"github.com/toolsim/toolsim/timeline"
)

func reference() harness.Engine { return engine.New(engine.Options{}) }

// TestReplayDir: the reference engine passes every oracle on the traces and
// matches their goldens.
func TestReplayDir(t *testing.T) {
	harnesstest.ReplayDir(t, "testdata/traces", reference, harness.Options{SelfCheck: true})
}

// noDiagnostics is a partial engine: it fills no diagnostics.
type noDiagnostics struct{ *engine.Engine }

func (e noDiagnostics) Timeline() *timeline.Timeline {
	tl := *e.Engine.Timeline()
	tl.Diagnostics = nil
	return &tl
}

// closeCounter counts the engines closed.
type closeCounter struct {
	harness.Engine
	closed *int
}

func (c closeCounter) Close() error { *c.closed++; return nil }

// TestReplayDirPartialEngine: an engine that declares no diagnostics passes
// when ReplayDir gets the options it is fuzzed with (without them it fails
// on diagnostics), and every engine ReplayDir makes is closed.
func TestReplayDirPartialEngine(t *testing.T) {
	made, closed := 0, 0
	newEngine := func() harness.Engine {
		made++
		return closeCounter{noDiagnostics{engine.New(engine.Options{})}, &closed}
	}
	harnesstest.ReplayDir(t, "testdata/traces", newEngine, harness.Options{Fields: []string{"output", "update_seq", "error", "duration_ms", "summary"}})
	if made == 0 || closed != made {
		t.Errorf("made %d engines, closed %d", made, closed)
	}
}

// noTurnEnd is a broken engine: it ignores turn_end, so spinners outlive
// their turn.
type noTurnEnd struct{ *engine.Engine }

func (e noTurnEnd) Apply(ev *event.Event) {
	if ev.Kind != event.KindTurnEnd {
		e.Engine.Apply(ev)
	}
}

// TestBrokenEngineHelper runs ReplayDir on a broken engine; it is run as a
// subprocess by TestReplayDirFailsBrokenEngine and skipped otherwise.
func TestBrokenEngineHelper(t *testing.T) {
	if os.Getenv("HARNESSTEST_BROKEN") != "1" {
		t.Skip("run by TestReplayDirFailsBrokenEngine")
	}
	harnesstest.ReplayDir(t, "testdata/traces", func() harness.Engine { return noTurnEnd{engine.New(engine.Options{})} }, harness.Options{})
}

func TestReplayDirFailsBrokenEngine(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestBrokenEngineHelper$")
	cmd.Env = append(os.Environ(), "HARNESSTEST_BROKEN=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("ReplayDir passed a broken engine:\n%s", out)
	}
	if !strings.Contains(string(out), "no-live") && !strings.Contains(string(out), ": model:") {
		t.Errorf("failure output names neither no-live nor model:\n%s", out)
	}
}
