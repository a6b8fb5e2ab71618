package chromium

import (
	"os"
	"path/filepath"
	"testing"
)

func TestPath(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "chromium-browser")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, env, path, want string
	}{
		{"CHROMIUM wins", "/opt/chrome", dir, "/opt/chrome"},
		{"found on PATH", "", dir, fake},
		{"none", "", t.TempDir(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CHROMIUM", tt.env)
			t.Setenv("PATH", tt.path)
			if got := Path(); got != tt.want {
				t.Errorf("Path() = %q, want %q", got, tt.want)
			}
		})
	}
}
