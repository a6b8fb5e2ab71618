package redact_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/redact"
)

// checkSecret is an npm token that the npm-access-token rule finds.
var checkSecret = "npm_" + strings.Repeat("a1b2c3d4e5f6", 3)

// plantSecrets writes, in a new current directory, traces/t.jsonl (a
// JSON line with the secret, a plain line with it and an e-mail address,
// a JSON line whose address hides behind \u escapes) and traces/a.txt.
func plantSecrets(t *testing.T) {
	t.Helper()
	t.Chdir(t.TempDir())
	os.MkdirAll("traces", 0o755)
	jsonl := `{"seq":1,"t":0,"kind":"text","text":"token ` + checkSecret + `"}` + "\n" +
		"plain alice@example.com " + checkSecret + "\n" +
		`{"seq":2,"t":1,"kind":"text","text":"bob\u0040example.com"}` + "\n" +
		`{"seq":3,"t":2,"kind":"text","text":"nothing"}` + "\n"
	os.WriteFile(filepath.Join("traces", "t.jsonl"), []byte(jsonl), 0o644)
	os.WriteFile(filepath.Join("traces", "a.txt"), []byte("key="+checkSecret+"\n"), 0o644)
}

// check runs redact.Check and returns its findings as strings.
func check(t *testing.T, paths []string, ign redact.Ignore) ([]string, int, error) {
	t.Helper()
	var got []string
	n, err := redact.Check(paths, ign, func(f redact.Finding) { got = append(got, f.String()) })
	return got, n, err
}

// TestCheckNamesFileLineRule: Check names each file, line and rule in
// order (a directory's files in lexical order, then the files named after
// it), reads a JSON line's strings unescaped, and never shows the secret.
func TestCheckNamesFileLineRule(t *testing.T) {
	plantSecrets(t)
	got, n, err := check(t, []string{"traces", "traces/a.txt"}, redact.Ignore{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"traces/a.txt:1: npm-access-token",
		"traces/t.jsonl:1: npm-access-token",
		"traces/t.jsonl:2: email, npm-access-token",
		"traces/t.jsonl:3: email",
		"traces/a.txt:1: npm-access-token",
	}
	if diff := cmp.Diff(want, got); diff != "" || n != 3 {
		t.Errorf("findings (-want +got):\n%s\nfiles %d, want 3", diff, n)
	}
	for _, f := range got {
		if strings.Contains(f, checkSecret) {
			t.Errorf("a finding shows the secret: %s", f)
		}
	}
}

// TestCheckIgnores: an ignore file's lines drop the rules they accept in
// the files their glob matches, * every rule.
func TestCheckIgnores(t *testing.T) {
	plantSecrets(t)
	os.WriteFile(redact.IgnoreFile, []byte("# known\ntraces/*.jsonl npm-access-token  # planted\ntraces/a.txt *\n"), 0o644)
	ign, err := redact.ReadIgnore(redact.IgnoreFile)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := check(t, []string{"traces"}, ign)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"traces/t.jsonl:2: email", "traces/t.jsonl:3: email"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

// TestReadIgnoreErrors: the default ignore file may be missing, another
// may not; a line without a rule or with a bad glob is named.
func TestReadIgnoreErrors(t *testing.T) {
	t.Chdir(t.TempDir())
	if _, err := redact.ReadIgnore(redact.IgnoreFile); err != nil {
		t.Errorf("a missing default ignore file: %v", err)
	}
	if _, err := redact.ReadIgnore("other"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing named ignore file: %v, want not exist", err)
	} else if _, ok := errors.AsType[*fs.PathError](err); !ok {
		t.Errorf("a missing named ignore file: %T, want *fs.PathError", err)
	}
	for bad, want := range map[string]string{
		"traces/*.jsonl\n":       "bad:1: want GLOB RULE",
		"\n# comment\n[ email\n": "bad:3: want GLOB RULE",
	} {
		os.WriteFile("bad", []byte(bad), 0o644)
		if _, err := redact.ReadIgnore("bad"); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("ReadIgnore of %q: %v, want %s...", bad, err, want)
		}
	}
}

// TestCheckStopsAtError: a path that cannot be listed stops Check before
// any file is read.
func TestCheckStopsAtError(t *testing.T) {
	plantSecrets(t)
	got, _, err := check(t, []string{"traces", "missing"}, redact.Ignore{})
	if !errors.Is(err, fs.ErrNotExist) || len(got) != 0 {
		t.Errorf("a missing path: %v, findings %q", err, got)
	}
}
