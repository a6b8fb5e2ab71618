//go:build unix

package engineproto_test

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/internal/procgroup"
)

// wrapped starts `sh -c script` as the engine, as npx, uv run or a shell
// script would: $0 is the test binary (an engine in the given mode) and
// $1 a FIFO where the script must first write its pid, which is also the
// process group's id. With fire, the init handshake's timeout fires once
// the group id is known. It returns the client (nil when Start failed),
// Start's error and the group id.
func wrapped(t *testing.T, mode, script string, clk *fakeClock, fire bool) (*engineproto.Client, error, int) {
	t.Helper()
	t.Setenv(fakeEnv, mode)
	fifo := filepath.Join(t.TempDir(), "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	type started struct {
		c   *engineproto.Client
		err error
	}
	done := make(chan started, 1)
	go func() {
		c, err := engineproto.Start([]string{"sh", "-c", script, os.Args[0], fifo}, engineproto.WithClock(engineproto.Options{Timeout: 300 * time.Millisecond}, clk))
		done <- started{c, err}
	}()
	data, err := os.ReadFile(fifo) // blocks until the script has written it
	if err != nil {
		t.Fatal(err)
	}
	pgid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	if fire {
		clk.fire() // the init handshake's timeout
	}
	s := <-done
	return s.c, s.err, pgid
}

// groupGone fails the test when any process of group pgid is left.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	if err := procgroup.CheckGone(pgid); err != nil {
		t.Error(err)
		syscall.Kill(-pgid, syscall.SIGKILL)
	}
}

// TestWrapperThatNeverAnswers: a wrapper whose grandchild never answers
// (and holds the pipes) times out at init, and its whole group is gone.
func TestWrapperThatNeverAnswers(t *testing.T) {
	_, err, pgid := wrapped(t, "reference", `echo $$ > "$1"; sleep 7777; :`, newFakeClock(), true)
	var ee *engineproto.EngineError
	if !errors.As(err, &ee) || !ee.Setup || !strings.Contains(err.Error(), "answering init: no reply within 300ms: killed its process group") {
		t.Fatalf("err = %v", err)
	}
	groupGone(t, pgid)
}

// TestWrapperExitsLeavingAChild: the engine dies while a background
// grandchild keeps its output open; the death is reported at once (no
// timeout fires) and the grandchild is killed with the group.
func TestWrapperExitsLeavingAChild(t *testing.T) {
	_, err, pgid := wrapped(t, "reference", `sleep 7777 & echo $$ > "$1"; echo "engine: cannot load" >&2; exit 3`, newFakeClock(), false)
	msg := errText(err)
	for _, want := range []string{"answering init: it exited without answering", "exit status 3", "engine: cannot load"} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	groupGone(t, pgid)
}

// TestCloseReapsTheGroup: closing a wrapped engine reaps its background
// children too, without waiting for them to close its output.
func TestCloseReapsTheGroup(t *testing.T) {
	c, err, pgid := wrapped(t, "reference", `sleep 7777 & echo $$ > "$1"; "$0"`, newFakeClock(), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Event(ev(1)); err != nil {
		t.Fatal(err)
	}
	if err := c.Close(); err != nil {
		t.Fatalf("close: %v", err)
	}
	groupGone(t, pgid)
}

// TestCloseKillsAnEngineThatStays: an engine that does not exit when its
// input closes is killed, group and all, when the timeout fires.
func TestCloseKillsAnEngineThatStays(t *testing.T) {
	clk := newFakeClock()
	c, err, pgid := wrapped(t, "reference", `echo $$ > "$1"; "$0"; sleep 7777`, clk, false)
	if err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() { errc <- c.Close() }()
	clk.fire()
	if err := <-errc; err == nil || !strings.Contains(err.Error(), "did not exit within 300ms of its input closing: killed its process group") {
		t.Fatalf("close: %v", err)
	}
	groupGone(t, pgid)
}

// TestStderrFloodIsBounded: an engine that floods its standard error with
// one endless line keeps only a bounded tail of it.
func TestStderrFloodIsBounded(t *testing.T) {
	_, err, _ := wrapped(t, "reference", `echo $$ > "$1"; head -c 50000000 /dev/zero | tr '\0' x >&2; exit 1`, newFakeClock(), false)
	if err == nil || len(err.Error()) > 10_000 || !strings.Contains(err.Error(), "xxxx") {
		t.Fatalf("error (%d bytes): %.300s", len(errText(err)), errText(err))
	}
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
