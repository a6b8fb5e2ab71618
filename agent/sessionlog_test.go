package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/event"
)

// TestNewestFile: the newest file the profile's pattern matches is read,
// and a directory with none is an error naming it.
func TestNewestFile(t *testing.T) {
	root := t.TempDir()
	write := func(rel string, age time.Duration) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(rel), 0o644); err != nil {
			t.Fatal(err)
		}
		when := time.Unix(1_700_000_000, 0).Add(-age)
		if err := os.Chtimes(p, when, when); err != nil {
			t.Fatal(err)
		}
	}
	write("a/old.jsonl", 2*time.Hour)
	write("a/new.jsonl", time.Hour)
	write("a/newest.txt", 0)      // not matched
	write("a/sub/agent.jsonl", 0) // one level too deep
	match := func(rel string) bool { return strings.Count(rel, "/") == 1 && strings.HasSuffix(rel, ".jsonl") }
	got, err := newestFile(root, match)
	if err != nil || filepath.Base(got) != "new.jsonl" {
		t.Errorf("newestFile = %q, %v; want a/new.jsonl", got, err)
	}
	if _, err := newestFile(filepath.Join(root, "a", "sub"), func(string) bool { return false }); err == nil || !strings.Contains(err.Error(), "no session log under") {
		t.Errorf("a directory with no match: %v, want an error naming it", err)
	}
}

// TestKeepLog: the log and the events sent land in one directory named
// after the app and the events, the same events in the same place.
func TestKeepLog(t *testing.T) {
	dir := t.TempDir()
	sent := []event.Event{{Seq: 1, Kind: event.KindTurnStart, Role: event.RoleAssistant}, {Seq: 2, T: 1, Kind: event.KindToolStart, ID: "a", Name: "read"}}
	for _, name := range []string{"/home/x/rollout-1.jsonl", "opencode export ses_1"} {
		if err := keepLog(dir, "codex", name, []byte("log of "+name), sent); err != nil {
			t.Fatal(err)
		}
	}
	dirs, _ := filepath.Glob(filepath.Join(dir, "codex-*"))
	if len(dirs) != 1 {
		t.Fatalf("kept in %v, want one directory for one trace", dirs)
	}
	for file, want := range map[string]string{"rollout-1.jsonl": "log of /home/x/rollout-1.jsonl", "ses_1.json": "log of opencode export ses_1"} {
		if b, err := os.ReadFile(filepath.Join(dirs[0], file)); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", file, b, err, want)
		}
	}
	b, err := os.ReadFile(filepath.Join(dirs[0], "sent.jsonl"))
	if err != nil || strings.Count(string(b), "\n") != 2 || !strings.Contains(string(b), `"id":"a"`) {
		t.Errorf("sent.jsonl: %q, %v; want the two events", b, err)
	}
}
