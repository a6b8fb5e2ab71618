package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNPMVersion(t *testing.T) {
	tests := []struct {
		in, want string
		dirty    bool
		err      string
	}{
		{in: "v1.2.3", want: "1.2.3"},
		{in: "v0.0.0-20261127023427-e38e7592f4f7", want: "0.0.0-20261127023427-e38e7592f4f7"},
		{in: "v0.0.0-20261127023427-e38e7592f4f7+dirty", want: "0.0.0-20261127023427-e38e7592f4f7", dirty: true},
		{in: "v1.2.4-0.20261127023427-e38e7592f4f7", want: "1.2.4-0.20261127023427-e38e7592f4f7"},
		{in: "v1.3.0-rc.1.0.20261127023427-e38e7592f4f7", want: "1.3.0-rc.1.0.20261127023427-e38e7592f4f7"},
		{in: "(devel)", err: "build from a git checkout"},
		{in: "", err: "want vX.Y.Z"},
		{in: "v1.2.3+incompatible", err: "unexpected build metadata"},
		{in: "v1.02.3", err: "not a semantic version"},
	}
	for _, tt := range tests {
		got, dirty, err := npmVersion(tt.in)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("npmVersion(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want || dirty != tt.dirty {
			t.Errorf("npmVersion(%q) = %q, %v, %v; want %q, %v", tt.in, got, dirty, err, tt.want, tt.dirty)
		}
	}
}

func TestDistTag(t *testing.T) {
	for v, want := range map[string]string{"1.2.3": "latest", "0.0.0-20261127023427-e38e7592f4f7": "next", "1.3.0-rc.1": "next"} {
		if got := distTag(v); got != want {
			t.Errorf("distTag(%q) = %q, want %q", v, got, want)
		}
	}
}

func TestSelectPlatforms(t *testing.T) {
	all, err := selectPlatforms("all")
	if err != nil || len(all) != 5 {
		t.Fatalf(`selectPlatforms("all") = %d platforms, %v; want 5`, len(all), err)
	}
	two, err := selectPlatforms("win32-x64,linux-arm64")
	if err != nil || len(two) != 2 || two[0].GOOS != "windows" || two[1].GOARCH != "arm64" {
		t.Errorf("selectPlatforms(win32-x64,linux-arm64) = %v, %v", two, err)
	}
	if _, err := selectPlatforms("freebsd-x64"); err == nil || !strings.Contains(err.Error(), "linux-x64") {
		t.Errorf("an unknown platform: %v, want an error listing the known ones", err)
	}
}

// template reads the real npm/toolsim/package.json.
func template(t *testing.T) manifest {
	t.Helper()
	m, err := readTemplate(filepath.Join("..", "toolsim", "package.json"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestTemplate(t *testing.T) {
	m := template(t)
	if m.Name != "toolsim" || !m.Private || len(m.OptionalDependencies) != 0 {
		t.Errorf("npm/toolsim/package.json: name %q, private %v, %d optional dependencies; want toolsim, private (build makes it publishable), none (build lists them)",
			m.Name, m.Private, len(m.OptionalDependencies))
	}
	if err := m.checkFiles(); err != nil {
		t.Error(err)
	}
	targets, err := m.exportTargets()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bin/toolsim.js", "toolsim-engine.mjs", "toolsim-engine.d.mts", "vitest.mjs", "vitest.d.mts", "vitest.cjs", "vitest.d.cts"} {
		if !slices.Contains(targets, want) {
			t.Errorf("bin and exports name %q, want %s among them", targets, want)
		}
	}
	bad := m
	bad.Files = slices.DeleteFunc(slices.Clone(m.Files), func(f string) bool { return f == "vitest.mjs" })
	if err := bad.checkFiles(); err == nil || !strings.Contains(err.Error(), "vitest.mjs") {
		t.Errorf("a files list without vitest.mjs: %v, want an error naming it", err)
	}
}

func TestTemplateUnknownField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "package.json")
	if err := os.WriteFile(path, []byte(`{"name": "toolsim", "scripts": {"x": "y"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := readTemplate(path); err == nil || !strings.Contains(err.Error(), "scripts") {
		t.Errorf("a template with scripts: %v, want an error naming the field", err)
	}
}

func TestMainManifest(t *testing.T) {
	const v = "0.0.0-20261127023427-e38e7592f4f7"
	m := mainManifest(template(t), v)
	path := filepath.Join(t.TempDir(), "package.json")
	if err := writeManifest(path, m); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if _, ok := got["private"]; ok || got["version"] != v {
		t.Errorf("main package.json: private %v, version %v; want no private, %s", got["private"], got["version"], v)
	}
	deps, _ := got["optionalDependencies"].(map[string]any)
	if len(deps) != len(platforms) {
		t.Errorf("optionalDependencies = %v, want the %d platform packages", deps, len(platforms))
	}
	for _, p := range platforms {
		if deps[p.pkg()] != v {
			t.Errorf("optionalDependencies[%s] = %v, want exactly %s", p.pkg(), deps[p.pkg()], v)
		}
	}
	if bytes.Contains(data, []byte(`\u003e`)) {
		t.Errorf("package.json escapes >: %s", data)
	}
}

func TestPlatformManifest(t *testing.T) {
	win := platforms[len(platforms)-1]
	m := platformManifest(template(t), win, "1.2.3")
	if m.Name != "@toolsim/win32-x64" || !slices.Equal(m.OS, []string{"win32"}) || !slices.Equal(m.CPU, []string{"x64"}) ||
		!slices.Equal(m.Files, []string{"bin/toolsim.exe", "LICENSE"}) || m.Version != "1.2.3" || len(m.Bin) != 0 || m.License != "MIT" {
		t.Errorf("the win32-x64 manifest: %+v", m)
	}
	for _, p := range platforms {
		if p.key() != p.OS+"-"+p.CPU || !strings.HasPrefix(p.pkg(), "@toolsim/") {
			t.Errorf("%+v: key %s, package %s", p, p.key(), p.pkg())
		}
	}
}

// TestStageMain: the main package holds every listed file, the kit as
// examples/node has it, and the launcher executable.
func TestStageMain(t *testing.T) {
	root := repoRoot(t)
	m := template(t)
	dir := t.TempDir()
	if err := stageMain(root, dir, m); err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("staged package: %v", err)
		}
	}
	for to, from := range kit {
		got, err1 := os.ReadFile(filepath.Join(dir, to))
		want, err2 := os.ReadFile(filepath.Join(root, from))
		if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
			t.Errorf("staged %s is not a copy of %s (%v, %v)", to, from, err1, err2)
		}
	}
	st, err := os.Stat(filepath.Join(dir, "bin", "toolsim.js"))
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm()&0o111 == 0 {
		t.Errorf("staged bin/toolsim.js has mode %v, want it executable (chmod +x npm/toolsim/bin/toolsim.js)", st.Mode())
	}
}
