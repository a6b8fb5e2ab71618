package engineproto_test

import (
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeEnv); mode != "" {
		runFake(mode)
	}
	os.Exit(m.Run())
}

// start runs the test binary as an engine in the given mode; its
// timeouts fire only when the test fires clk.
func start(t *testing.T, mode string, clk *fakeClock) (*engineproto.Client, error) {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	return engineproto.Start([]string{os.Args[0]}, engineproto.WithClock(engineproto.Options{Timeout: 300 * time.Millisecond}, clk))
}

func ev(seq int64) *event.Event {
	return &event.Event{Seq: seq, T: seq, Kind: event.KindToolStart, ID: "a", Name: "grep"}
}

func TestMisbehavingEngines(t *testing.T) {
	tests := []struct {
		mode   string
		reason string // in the error
		stderr string // in the error's stderr tail
		exit   string
		failAt int64 // the event that fails
	}{
		{"crash", "it exited without answering", "panic: index out of range", "exit status 3", 2},
		{"hang", "no reply within 300ms: killed its process group", "", "", 2},
		{"malformed", "a reply that is not JSON", "", "", 2},
		{"huge", "a reply longer than 67108864 bytes", "", "", 1},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			clk := newFakeClock()
			c, err := start(t, tt.mode, clk)
			if err != nil {
				t.Fatal(err)
			}
			pid := c.Pid()
			for seq := int64(1); seq < tt.failAt; seq++ {
				if _, err := c.Event(ev(seq)); err != nil {
					t.Fatalf("event %d: %v", seq, err)
				}
			}
			errc := make(chan error, 1)
			go func() {
				_, err := c.Event(ev(tt.failAt))
				errc <- err
			}()
			if tt.mode == "hang" {
				clk.fire() // the engine is blocked for good: its time is up
			}
			err = <-errc
			var ee *engineproto.EngineError
			if !errors.As(err, &ee) {
				t.Fatalf("err = %v, want an EngineError", err)
			}
			msg := err.Error()
			for _, want := range []string{tt.reason, tt.stderr, tt.exit, `engine "` + os.Args[0] + `"`} {
				if !strings.Contains(msg, want) {
					t.Errorf("error lacks %q:\n%s", want, msg)
				}
			}
			if !c.Dead() || !reaped(pid) {
				t.Errorf("process %d not reaped after the failure (dead=%v)", pid, c.Dead())
			}
		})
	}
}

func TestExtraReplyIsCaught(t *testing.T) {
	c, err := start(t, "extra", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Event(ev(1)); err != nil {
		t.Fatal(err)
	}
	_, err = c.Event(ev(2))
	if err == nil || !strings.Contains(err.Error(), "a reply for id 2, want 3 (an extra or missing reply)") {
		t.Fatalf("err = %v", err)
	}
}

func TestIgnoredResetIsCaught(t *testing.T) {
	c, err := start(t, "ignore-reset", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	c.Event(ev(1))
	if err := c.Reset(); err == nil || !strings.Contains(err.Error(), "it ignored reset") {
		t.Fatalf("err = %v", err)
	}
}

func TestSetupProblems(t *testing.T) {
	_, err := engineproto.Start([]string{"/no/such/engine"}, engineproto.Options{})
	var ee *engineproto.EngineError
	if !errors.As(err, &ee) || !ee.Setup || !strings.Contains(err.Error(), "cannot start") {
		t.Errorf("missing command: %v", err)
	}
	_, err = start(t, "wrong-protocol", newFakeClock())
	if !errors.As(err, &ee) || !ee.Setup || !strings.Contains(err.Error(), `speaks protocol "toolsim-engine/0", toolsim speaks "toolsim-engine/1"`) {
		t.Errorf("wrong protocol: %v", err)
	}
}

// TestReferenceOverThePipe: the reference engine served by Serve answers
// events, batches, render and reset, and exits when its input closes.
func TestReferenceOverThePipe(t *testing.T) {
	c, err := start(t, "reference", newFakeClock())
	if err != nil {
		t.Fatal(err)
	}
	pid := c.Pid()
	tl, err := c.Event(ev(1))
	if err != nil || len(tl.Items) != 1 || tl.Items[0].Tool.ID != "a" {
		t.Fatalf("event: %v %+v", err, tl)
	}
	tls, err := c.Batch([]event.Event{{Seq: 2, T: 5, Kind: event.KindToolDone, ID: "a", OK: true}}, true)
	if err != nil || len(tls) != 2 || tls[0].Items[0].Tool.Status != "ok" {
		t.Fatalf("batch: %v %d", err, len(tls))
	}
	if text, err := c.Render(40); err != nil || !strings.Contains(text, "✓ grep") {
		t.Fatalf("render: %v %q", err, text)
	}
	if err := c.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil || !reaped(pid) {
		t.Fatalf("close: %v, reaped %v", err, reaped(pid))
	}
}

// TestServedClient: a client whose engine is served on a goroutine of this
// process (the benchmarks' pipe pair) speaks the protocol as one with a
// process does: its last timeline is the reference engine's, and Close
// ends the server.
func TestServedClient(t *testing.T) {
	done := make(chan error, 1)
	serve := func(r io.Reader, w io.Writer) error {
		err := engineproto.Serve(r, w, serveOpts)
		done <- err
		return err
	}
	c, err := engineproto.StartServed(serve, engineproto.Options{Timeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	for seed, evs := range scenarios(20) {
		if err := c.Reset(); err != nil {
			t.Fatal(err)
		}
		tls, err := c.Batch(evs, true)
		if err != nil {
			t.Fatal(err)
		}
		e := engine.New(engine.Options{})
		for i := range evs {
			e.Apply(&evs[i])
		}
		e.Finish()
		// Versions are numbered by the client, and Unfinished is not sent.
		ignore := cmp.Options{cmpopts.IgnoreFields(timeline.Item{}, "Version"), cmpopts.IgnoreFields(timeline.Tool{}, "Unfinished"), cmpopts.EquateEmpty()}
		if diff := cmp.Diff(e.Timeline(), tls[len(tls)-1], ignore); diff != "" {
			t.Fatalf("seed %d (-engine +served):\n%s", seed, diff)
		}
	}
	if err := c.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if err := <-done; err != nil {
		t.Errorf("the server ended with %v", err)
	}
}
