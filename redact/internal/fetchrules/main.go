// Command fetchrules copies gitleaks' default rule file from a pinned
// module version into redact/gitleaks.toml: the build step behind
// package redact's detector set (go generate ./redact). It asks the go
// command for the module (go mod download, through the module proxy and
// its checksum database), so the copy is the published file, byte for
// byte.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: fetchrules MODULE@VERSION OUT")
		os.Exit(2)
	}
	if err := fetch(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "fetchrules: %v\n", err)
		os.Exit(1)
	}
}

// fetch downloads mod and copies its config/gitleaks.toml to out.
func fetch(mod, out string) error {
	raw, err := exec.Command("go", "mod", "download", "-json", mod).Output()
	if err != nil {
		return fmt.Errorf("go mod download %s: %w", mod, err)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(raw, &info); err != nil {
		return fmt.Errorf("go mod download %s: %w", mod, err)
	}
	if info.Error != "" {
		return fmt.Errorf("go mod download %s: %s", mod, info.Error)
	}
	data, err := os.ReadFile(filepath.Join(info.Dir, "config", "gitleaks.toml"))
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
