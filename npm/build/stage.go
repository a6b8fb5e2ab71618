package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// kit maps the main package's files that are copied from elsewhere in the
// repository to their one source: the Node kit, importable as
// toolsim/engine, and the repository's LICENSE.
var kit = map[string]string{
	"toolsim-engine.mjs":   "examples/node/toolsim-engine.mjs",
	"toolsim-engine.d.mts": "examples/node/toolsim-engine.d.mts",
	"LICENSE":              "LICENSE",
}

// stageMain copies the main package's files (the template's files list)
// into dir: from npm/toolsim, or from their source for the kit.
func stageMain(root, dir string, tmpl manifest) error {
	for _, f := range tmpl.Files {
		from := filepath.Join(root, "npm", "toolsim", filepath.FromSlash(f))
		if src, ok := kit[f]; ok {
			from = filepath.Join(root, filepath.FromSlash(src))
		}
		if err := copyFile(from, filepath.Join(dir, filepath.FromSlash(f))); err != nil {
			return fmt.Errorf("npm/toolsim/package.json files: %s: %w", f, err)
		}
	}
	return nil
}

// copyFile copies a regular file with its permission bits, making the
// directories it needs.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file (list files one by one)", from)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, st.Mode().Perm())
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copying %s to %s: %w", from, to, err)
	}
	return out.Close()
}

// platformReadme is a platform package's README.md.
func platformReadme(p platform) string {
	return fmt.Sprintf(`# %s

The [toolsim](https://github.com/toolsim/toolsim) binary for %s %s
(GOOS=%s GOARCH=%s, built with CGO_ENABLED=0).

Do not depend on this package: install `+"`toolsim`"+`, which lists it as an
optional dependency, so that npm installs the one for your platform, and
run `+"`npx toolsim`"+`.
`, p.pkg(), p.OS, p.CPU, p.GOOS, p.GOARCH)
}
