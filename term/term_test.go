//go:build linux || darwin

package term

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// testWait bounds the waits that should succeed: generous, since they
// return as soon as the screen shows what they wait for.
const testWait = 10 * time.Second

// syncBuffer is a strings.Builder safe for the transcript's goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestScreenThroughTheEmulator(t *testing.T) {
	var transcript syncBuffer
	term := start(t, "screen", Options{Cols: 40, Rows: 6, Transcript: &transcript})
	s := waitText(t, term, `red done`)
	want := []string{"hello WORLD", "replaced", "red done", "", "", ""}
	if diff := cmp.Diff(want, s.Lines); diff != "" {
		t.Errorf("screen rows (-want +got):\n%s", diff)
	}
	if got, want := s.Cursor, (Pos{X: 8, Y: 2}); got != want {
		t.Errorf("cursor at %+v, want %+v", got, want)
	}
	if !strings.Contains(s.Styled, "\x1b[31mred") {
		t.Errorf("the styled screen lacks the red: %q", s.Styled)
	}
	if got, want := s.String(), "hello WORLD\nreplaced\nred done"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if !strings.Contains(transcript.String(), "\x1b[1;7HWORLD\x1b[2;1H\x1b[2K") {
		t.Errorf("the transcript lacks the raw output: %q", transcript.String())
	}
}

func TestRepliesReachTheProgram(t *testing.T) {
	term := start(t, "query", Options{})
	s := waitText(t, term, `da "`)
	if !s.Contains(`cpr "\x1b[2;5R"`) {
		t.Errorf("the cursor position reply is wrong or missing:\n%s", s)
	}
	if !s.Match(regexp.MustCompile(`da "\\x1b\[\?[0-9;]+c"`)) {
		t.Errorf("the device attributes reply is wrong or missing:\n%s", s)
	}
}

func TestWaitTimesOutWithTheScreen(t *testing.T) {
	term := start(t, "screen", Options{})
	waitText(t, term, `red done`)
	tests := []struct {
		name string
		wait func() (Snapshot, error)
		msg  string
	}{
		{"WaitText", func() (Snapshot, error) {
			return term.WaitText(regexp.MustCompile(`never`), 50*time.Millisecond)
		}, "term: waiting for text matching /never/: timed out after 50ms; the screen:\n| hello WORLD\n| replaced\n| red done"},
		{"WaitGone", func() (Snapshot, error) {
			return term.WaitGone(regexp.MustCompile(`hello`), 50*time.Millisecond)
		}, "term: waiting for text /hello/ to go: timed out after 50ms; the screen:\n| hello WORLD"},
		{"WaitFor", func() (Snapshot, error) {
			return term.WaitFor("ten rows", 50*time.Millisecond, func(s Snapshot) bool { return len(s.Lines) == 10 })
		}, "term: waiting for ten rows: timed out after 50ms"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := tt.wait()
			var we *WaitError
			if !errors.As(err, &we) || !errors.Is(err, ErrTimeout) {
				t.Fatalf("got %v, want a *WaitError for ErrTimeout", err)
			}
			if !strings.HasPrefix(err.Error(), tt.msg) {
				t.Errorf("the error:\n%s\nwant it to start with:\n%s", err, tt.msg)
			}
			if diff := cmp.Diff(s, we.Screen); diff != "" {
				t.Errorf("the error's screen differs from the returned one (-returned +error):\n%s", diff)
			}
		})
	}
}

func TestWaitRejectsBadBounds(t *testing.T) {
	term := start(t, "screen", Options{})
	re := regexp.MustCompile(`x`)
	tests := []struct {
		name string
		err  func() error
		want string
	}{
		{"zero timeout", func() error { _, err := term.WaitText(re, 0); return err }, "timeout 0s, want a positive bound"},
		{"nil regexp", func() error { _, err := term.WaitGone(nil, time.Second); return err }, "the regexp is nil"},
		{"zero settle max", func() error { _, err := term.Settle(time.Millisecond, 0); return err }, "want a positive bound"},
		{"no tries", func() error { _, err := term.SendUntil("x", nil, 0, time.Second); return err }, "want at least one try"},
		{"nil condition", func() error { _, err := term.WaitFor("x", time.Second, nil); return err }, "waiting for x: the condition is nil"},
		{"nil took", func() error { _, err := term.SendUntil("x", nil, 1, time.Second); return err }, "the condition is nil"},
		{"negative quiet", func() error { _, err := term.Settle(-1, time.Second); return err }, "negative quiet interval"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.err()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestWaitGone(t *testing.T) {
	term := start(t, "blink", Options{})
	waitText(t, term, `busy`)
	if err := term.Send("x"); err != nil {
		t.Fatal(err)
	}
	s, err := term.WaitGone(regexp.MustCompile(`busy`), testWait)
	if err != nil {
		t.Fatal(err)
	}
	if s.Contains("busy") {
		t.Errorf("WaitGone returned a screen that still shows busy:\n%s", s)
	}
}

func TestSettle(t *testing.T) {
	t.Run("quiet screen", func(t *testing.T) {
		term := start(t, "screen", Options{Quiet: 20 * time.Millisecond})
		waitText(t, term, `red done`)
		s, err := term.Settle(0, testWait)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := s.String(), "hello WORLD\nreplaced\nred done"; got != want {
			t.Errorf("settled on %q, want %q", got, want)
		}
	})
	t.Run("screen that keeps changing", func(t *testing.T) {
		term := start(t, "flood", Options{})
		waitText(t, term, `\d`)
		_, err := term.Settle(150*time.Millisecond, 600*time.Millisecond)
		if !errors.Is(err, ErrTimeout) {
			t.Fatalf("got %v, want ErrTimeout", err)
		}
		if !strings.Contains(err.Error(), "the screen to settle (unchanged for 150ms): timed out after 600ms") {
			t.Errorf("the error does not say what failed: %v", err)
		}
	})
}

func TestSendUntil(t *testing.T) {
	t.Run("resends a swallowed key", func(t *testing.T) {
		term := start(t, "keys", Options{})
		waitText(t, term, `ready`)
		took := func(s Snapshot) bool { return s.Contains(`got "x"`) }
		s, err := term.SendUntil("x", took, 5, 200*time.Millisecond)
		if err != nil {
			t.Fatal(err)
		}
		if !s.Contains(`got "x" after 1`) {
			t.Errorf("the second send did not show as the program's second byte:\n%s", s)
		}
	})
	t.Run("gives up after the tries", func(t *testing.T) {
		term := start(t, "deaf", Options{})
		waitText(t, term, `ready`)
		never := func(s Snapshot) bool { return s.Contains("took") }
		_, err := term.SendUntil("y", never, 3, 50*time.Millisecond)
		var we *WaitError
		if !errors.As(err, &we) || !errors.Is(err, ErrTimeout) {
			t.Fatalf("got %v, want a *WaitError for ErrTimeout", err)
		}
		if !strings.Contains(err.Error(), `keys "y" to take (sent 3 times, waiting 50ms each): timed out after 150ms`) {
			t.Errorf("the error does not say what failed: %v", err)
		}
		waitText(t, term, `seen 3`)
	})
}

func TestSendEachKeepsOrder(t *testing.T) {
	term := start(t, "echo", Options{})
	waitText(t, term, `ready`)
	if err := term.SendEach(time.Millisecond, "a", Esc, "b", Enter); err != nil {
		t.Fatal(err)
	}
	waitText(t, term, regexp.QuoteMeta(`echo "a\x1bb\r"`))
}

func TestExit(t *testing.T) {
	term := start(t, "exit", Options{Quiet: 20 * time.Millisecond})
	waitText(t, term, `bye`)
	select {
	case <-term.Done():
	case <-time.After(testWait):
		t.Fatal("the program's exit was not seen")
	}
	var ee *exec.ExitError
	if !term.Exited() || !errors.As(term.ExitErr(), &ee) || ee.ExitCode() != 3 {
		t.Fatalf("Exited() = %v, ExitErr() = %v; want true and exit status 3", term.Exited(), term.ExitErr())
	}
	_, err := term.WaitText(regexp.MustCompile(`never`), testWait)
	if !errors.Is(err, ErrExited) || !errors.As(err, &ee) {
		t.Fatalf("waiting after the exit: %v, want ErrExited wrapping the *exec.ExitError", err)
	}
	if want := "term: waiting for text matching /never/: the program exited: exit status 3; the screen:\n| bye"; err.Error() != want {
		t.Errorf("the error:\n%s\nwant:\n%s", err, want)
	}
	if _, err := term.WaitText(regexp.MustCompile(`bye`), testWait); err != nil {
		t.Errorf("a wait whose condition holds on the final screen: %v", err)
	}
	if _, err := term.Settle(0, testWait); !errors.Is(err, ErrExited) {
		t.Errorf("Settle after the exit: %v, want ErrExited", err)
	}
	if err := term.Send("x"); !errors.Is(err, ErrExited) {
		t.Errorf("Send after the exit: %v, want ErrExited", err)
	}
}

func TestResize(t *testing.T) {
	term := start(t, "size", Options{Cols: 100, Rows: 30})
	waitText(t, term, `size 100x30`)
	if err := term.Resize(90, 20); err != nil {
		t.Fatal(err)
	}
	if err := term.Send("x"); err != nil {
		t.Fatal(err)
	}
	s := waitText(t, term, `size 90x20`)
	if len(s.Lines) != 20 {
		t.Errorf("%d rows after the resize, want 20", len(s.Lines))
	}
	if err := term.Resize(0, 20); err == nil || !strings.Contains(err.Error(), "screen size 0x20") {
		t.Errorf("Resize(0, 20): %v, want an error naming the size", err)
	}
}

func TestCloseEndsWaitsAndSends(t *testing.T) {
	term := start(t, "screen", Options{})
	waitText(t, term, `red done`)
	result := make(chan error, 1)
	go func() {
		_, err := term.WaitText(regexp.MustCompile(`never`), testWait)
		result <- err
	}()
	if err := term.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-result:
		if !errors.Is(err, ErrClosed) {
			t.Errorf("a wait during Close: %v, want ErrClosed", err)
		}
	case <-time.After(testWait):
		t.Fatal("Close did not end a running wait")
	}
	if err := term.Send("x"); !errors.Is(err, ErrClosed) {
		t.Errorf("Send after Close: %v, want ErrClosed", err)
	}
	if err := term.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
	if !term.Snapshot().Contains("red done") {
		t.Errorf("the screen is gone after Close:\n%s", term.Snapshot())
	}
}

func TestStartFails(t *testing.T) {
	tests := []struct {
		name string
		o    Options
		is   error  // when not nil, errors.Is must find it
		want string // the error must contain it
	}{
		{"missing program", Options{Path: "toolsim-no-such-program"}, exec.ErrNotFound, `term: start toolsim-no-such-program: exec: "toolsim-no-such-program": executable file not found`},
		{"missing path", Options{Path: "./no/such/program"}, nil, "term: start ./no/such/program:"},
		{"no path", Options{}, nil, "term: Options.Path is empty"},
		{"bad size", Options{Path: "sh", Cols: -1}, nil, "screen size -1x40"},
		{"huge size", Options{Path: "sh", Rows: 70000}, nil, "screen size 120x70000"},
		{"negative quiet", Options{Path: "sh", Quiet: -time.Second}, nil, "Options.Quiet is -1s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term, err := Start(tt.o)
			if err == nil {
				term.Close()
				t.Fatal("Start succeeded")
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("got %v, want it to wrap %v", err, tt.is)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %q, want it to contain %q", err, tt.want)
			}
		})
	}
}
