package redact

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRulesLoad: every rule of the embedded gitleaks file that applies to
// a trace compiles, and the set is gitleaks' default, not a few.
func TestRulesLoad(t *testing.T) {
	specific, generic, err := loadGitleaks(gitleaksTOML)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(specific) + len(generic); n < 200 || len(generic) == 0 {
		t.Errorf("%d specific and %d generic rules, want 200 or more, some generic", len(specific), len(generic))
	}
}

// TestRulesArePinned: gitleaks.toml is the pinned module's
// config/gitleaks.toml, byte for byte (go generate ./redact copies it).
// It needs the go command and the module proxy, and says so when they are
// out of reach.
func TestRulesArePinned(t *testing.T) {
	raw, err := exec.Command("go", "mod", "download", "-json", GitleaksModule).Output()
	if err != nil {
		t.Skipf("cannot download %s (no module proxy?): %v", GitleaksModule, err)
	}
	var info struct{ Dir string }
	if err := json.Unmarshal(raw, &info); err != nil || info.Dir == "" {
		t.Skipf("go mod download %s: %s", GitleaksModule, raw)
	}
	want, err := os.ReadFile(filepath.Join(info.Dir, "config", "gitleaks.toml"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(want, gitleaksTOML) {
		t.Errorf("redact/gitleaks.toml differs from %s's config/gitleaks.toml: run go generate ./redact", GitleaksModule)
	}
}

// TestAllowlistsApply: gitleaks' allowlists and entropy thresholds keep a
// placeholder-looking or low-entropy value from being taken for a secret.
func TestAllowlistsApply(t *testing.T) {
	r := New()
	for _, s := range []string{
		"API_TOKEN=${API_TOKEN}",               // a variable, in gitleaks' global allowlist
		"SERVICE_SECRET=aaaaaaaaaaaaaaaaaaaa1", // too little entropy for the generic rule
		"apiKey: customModel.api_key",          // code naming the key
		"git clone git@github.com:org/app.git", // a git remote, not an e-mail address
	} {
		if got := r.String(s); got != s {
			t.Errorf("String(%q) = %q, want it unchanged", s, got)
		}
	}
}
