package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/term"
)

// fakeApp writes a shell script that plays an app: it prints its
// arguments and a prompt, and exits on /quit unless stubborn.
func fakeApp(t *testing.T, stubborn bool) string {
	t.Helper()
	quit := `*"/quit"*) echo bye; exit 0;;`
	if stubborn {
		quit = `*"/quit"*) echo "not quitting";;`
	}
	script := "#!/bin/sh\necho \"args: $*\"\necho '> ready'\nwhile IFS= read -r line; do\n  case \"$line\" in\n    " + quit + "\n  esac\ndone\n"
	path := filepath.Join(t.TempDir(), "app.sh")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeProfile is a profile for fakeApp.
func fakeProfile() *Profile {
	return &Profile{Name: "fake", Bin: "app.sh", Setup: func(Env) (Launch, error) { return Launch{Args: []string{"--first"}}, nil },
		Ready: func(s term.Snapshot) bool { return s.Contains("> ready") },
		Busy:  func(term.Snapshot) bool { return false }, Quit: "/quit", Resume: []string{"--continue"}}
}

// TestRestart: the app is quit with its own command and started again
// with its launch arguments and then its resume arguments; an app that
// does not quit is killed, restarted all the same, and the error says so.
func TestRestart(t *testing.T) {
	clock := func() time.Time { return time.Unix(0, 0) }
	timing := Timing{Settle: 2 * time.Second}
	for _, tt := range []struct {
		name     string
		stubborn bool
		wantErr  string
	}{
		{"quits", false, ""},
		{"does not quit", true, "fake did not exit after /quit"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			a, err := Start(fakeProfile(), Options{Bin: fakeApp(t, tt.stubborn)}, clock)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			first := a.Term
			err = a.Restart(timing)
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("Restart: %v, want error %q", err, tt.wantErr)
			}
			if !first.Exited() {
				t.Error("the first app still runs")
			}
			if s := a.Term.Snapshot(); !s.Contains("args: --first --continue") || !a.P.Ready(s) {
				t.Errorf("the restarted app's screen:\n%s\nwant its arguments --first --continue and its prompt", s)
			}
		})
	}
}

// TestKill: the crash kills the app where it stands, even one that would
// not quit, without typing its quit command, and starts it again with its
// resume arguments.
func TestKill(t *testing.T) {
	clock := func() time.Time { return time.Unix(0, 0) }
	a, err := Start(fakeProfile(), Options{Bin: fakeApp(t, true)}, clock)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	first := a.Term
	if err := a.Kill(); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if !first.Exited() {
		t.Error("the killed app still runs")
	}
	if s := first.Snapshot(); s.Contains("/quit") || s.Contains("not quitting") {
		t.Errorf("the quit command was typed before the kill:\n%s", s)
	}
	if s := a.Term.Snapshot(); !s.Contains("args: --first --continue") || !a.P.Ready(s) {
		t.Errorf("the resumed app's screen:\n%s\nwant its arguments --first --continue and its prompt", s)
	}
}

// TestCrashed: after a crash SPEC shows a call that was running or asking
// as interrupted, and a finished one as it was.
func TestCrashed(t *testing.T) {
	in := []browser.Row{{Kind: "tool", ID: "a", Status: "running"}, {Kind: "tool", ID: "b", Status: "pending"},
		{Kind: "tool", ID: "c", Status: "ok"}, {Kind: "tool", ID: "d", Status: "denied"}}
	got := crashed(in)
	want := []string{"interrupted", "interrupted", "ok", "denied"}
	for i := range got {
		if got[i].Status != want[i] {
			t.Errorf("row %s: %s, want %s", got[i].ID, got[i].Status, want[i])
		}
	}
	if in[0].Status != "running" {
		t.Error("crashed changed its input")
	}
}
