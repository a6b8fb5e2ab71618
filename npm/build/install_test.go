package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestInstallOffline installs the tarballs of make npm into a fresh project
// with an empty npm cache and --offline (so nothing can come from the
// registry, and the other platforms' optional dependencies must not make
// the install fail), then runs the installed toolsim as a user would:
// npx toolsim version against the Go build's, a short fuzz of the Node
// example, an adapter importing toolsim/engine, the toolsim/vitest helper,
// README's adapter compiled by tsc --strict on the package's typings.
// make npm-test sets TOOLSIM_NPM_DIST (and TOOLSIM_GO_BINARY, bin/toolsim)
// and installs the pinned TypeScript (testdata/typescript).
func TestInstallOffline(t *testing.T) {
	dist := os.Getenv("TOOLSIM_NPM_DIST")
	if dist == "" {
		t.Skip("TOOLSIM_NPM_DIST is not set: make npm-test builds the packages (make npm) and runs this test on them")
	}
	for _, tool := range []string{"node", "npm", "npx"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed: %v", tool, err)
		}
	}
	root := repoRoot(t)
	pk := readPackages(t, dist)
	host := hostPlatform(t)
	mainTgz := filepath.Join(dist, pk.Main)
	hostTgz, ok := pk.Platforms[host.key()]
	if !ok {
		t.Fatalf("%s/packages.json has no package for this machine, %s: build it (make npm)", dist, host.key())
	}
	hostTgz = filepath.Join(dist, hostTgz)
	gobin := goBinary(t, root)
	want := versionLine(t, gobin)

	proj := newProject(t)
	npm(t, proj, 0, "npm", "install", "--offline", "--no-audit", "--no-fund", mainTgz, hostTgz)

	t.Run("layout", func(t *testing.T) {
		var m manifest
		data, err := os.ReadFile(filepath.Join(proj.dir, "node_modules", "toolsim", "package.json"))
		if err == nil {
			err = json.Unmarshal(data, &m)
		}
		if err != nil || m.Version != pk.Version {
			t.Fatalf("node_modules/toolsim/package.json: version %q (%v), want %s", m.Version, err, pk.Version)
		}
		if m.License != "MIT" {
			t.Errorf("node_modules/toolsim/package.json: license %q, want MIT", m.License)
		}
		for _, pkg := range []string{"toolsim", host.pkg()} {
			if _, err := os.Stat(filepath.Join(proj.dir, "node_modules", filepath.FromSlash(pkg), "LICENSE")); err != nil {
				t.Errorf("%s ships no LICENSE: %v", pkg, err)
			}
		}
		for _, p := range platforms {
			_, err := os.Stat(filepath.Join(proj.dir, "node_modules", filepath.FromSlash(p.pkg()), "package.json"))
			if installed := err == nil; installed != (p == host) {
				t.Errorf("%s installed: %v, want %v (only this machine's platform package)", p.pkg(), installed, p == host)
			}
		}
	})

	t.Run("version", func(t *testing.T) {
		got := strings.TrimSpace(npm(t, proj, 0, "npx", "--offline", "toolsim", "version"))
		if got != want {
			t.Fatalf("npx toolsim version:\n  %s\nthe Go build's:\n  %s\n(tarballs of another commit, or a tree changed between the two builds, +dirty on one side: run make npm-test again)", got, want)
		}
		if !strings.HasPrefix(got, "toolsim v"+pk.Version) {
			t.Errorf("npx toolsim version = %q, want the npm version %s in it", got, pk.Version)
		}
	})

	t.Run("fuzz", func(t *testing.T) {
		adapter := filepath.Join(root, "examples", "node", "adapter.mjs")
		out := npm(t, proj, 0, "npx", "--offline", "toolsim", "fuzz", "--engine", "node "+quoteArg(adapter), "--seeds", "20", "--out", "failures/ok")
		if !strings.Contains(out, "ok: every oracle held") {
			t.Errorf("npx toolsim fuzz on the correct engine printed no ok line:\n%s", out)
		}
		// The exit status comes through the launcher: 1 for a finding.
		out = npm(t, proj, 1, "npx", "--offline", "toolsim", "fuzz", "--engine", "node "+quoteArg(adapter)+" --bug spinner", "--seeds", "20", "--out", "failures/spinner")
		if !strings.Contains(out, "cancel: tool status interrupted → running") {
			t.Errorf("npx toolsim fuzz --bug spinner did not name the spinner's signature:\n%s", out)
		}
		// Run through the launcher, the reproduce line is one that works
		// in an npm project.
		if !strings.Contains(out, "\nreproduce: npx toolsim check --engine ") {
			t.Errorf("npx toolsim fuzz printed no npx reproduce line:\n%s", out)
		}
		npm(t, proj, 2, "npx", "--offline", "toolsim", "fuzz", "--no-such-flag")
	})

	t.Run("engine", func(t *testing.T) {
		// The example adapter as a user writes it, with the kit from the
		// package: npx toolsim fuzz --engine 'node adapter.mjs'.
		src, err := os.ReadFile(filepath.Join(root, "examples", "node", "adapter.mjs"))
		if err != nil {
			t.Fatal(err)
		}
		const local = "from './toolsim-engine.mjs'"
		if !strings.Contains(string(src), local) {
			t.Fatalf("examples/node/adapter.mjs no longer imports %s: update this test", local)
		}
		adapter := strings.Replace(string(src), local, "from 'toolsim/engine'", 1)
		proj.write(t, "adapter.mjs", adapter)
		engine, err := os.ReadFile(filepath.Join(root, "examples", "node", "engine.mjs"))
		if err != nil {
			t.Fatal(err)
		}
		proj.write(t, "engine.mjs", string(engine))
		out := npm(t, proj, 0, "npx", "--offline", "toolsim", "fuzz", "--engine", "node adapter.mjs", "--seeds", "20", "--out", "failures/kit")
		if !strings.Contains(out, "ok: every oracle held") {
			t.Errorf("an adapter on toolsim/engine: no ok line:\n%s", out)
		}
	})

	t.Run("vitest-helper", func(t *testing.T) {
		adapter := filepath.Join(root, "examples", "node", "adapter.mjs")
		proj.write(t, "helper.mjs", `import { runFuzz, registerFindings } from 'toolsim/vitest';
const names = [];
const run = runFuzz({ engine: process.argv[2], seeds: 20 });
registerFindings(run, { test: (name) => names.push(name) });
console.log(JSON.stringify({ status: run.status, bin: run.bin, names, reproduce: run.failures.map((r) => r.reproduce) }));
`)
		var got struct {
			Status    int
			Bin       string
			Names     []string
			Reproduce []string
		}
		out := npm(t, proj, 0, "node", "helper.mjs", "node "+quoteArg(adapter)+" --bug spinner")
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("helper.mjs printed %q: %v", out, err)
		}
		if got.Status != 1 || !slices.Contains(got.Names, "toolsim: bug: a cancel: tool status interrupted → live") {
			t.Errorf("toolsim/vitest on the spinner bug: status %d, tests %q", got.Status, got.Names)
		}
		if !strings.Contains(got.Bin, filepath.Join("node_modules", "@toolsim", host.key())) {
			t.Errorf("toolsim/vitest ran %s, want the binary of %s", got.Bin, host.pkg())
		}
		if len(got.Reproduce) == 0 || !strings.HasPrefix(got.Reproduce[0], "npx toolsim check ") {
			t.Errorf("toolsim/vitest's reproduce commands %q, want npx toolsim check …", got.Reproduce)
		}
	})

	t.Run("imports", func(t *testing.T) {
		out := npm(t, proj, 0, "node", "--input-type=module", "-e",
			"const e = await import('toolsim/engine'); const v = await import('toolsim/vitest');"+
				" console.log(typeof e.serve, typeof v.fuzzEngine)")
		if strings.TrimSpace(out) != "function function" {
			t.Errorf("import('toolsim/engine'), import('toolsim/vitest'): %q, want serve and fuzzEngine", out)
		}
		// jest's default mode requires: the require condition, vitest.cjs.
		out = npm(t, proj, 0, "node", "-e", "const v = require('toolsim/vitest'); console.log(typeof v.fuzzEngine, require.resolve('toolsim/vitest'))")
		if f := strings.Fields(out); len(f) != 2 || f[0] != "function" || !strings.HasSuffix(f[1], "vitest.cjs") {
			t.Errorf("require('toolsim/vitest'): %q, want fuzzEngine from vitest.cjs", out)
		}
	})

	t.Run("typescript", func(t *testing.T) {
		// README's "Test a TypeScript engine" as a new user follows it: the
		// tarballs installed, engine.mjs and engine.d.mts copied from
		// examples/node next to README's adapter as adapter.mts, and
		// README's tsc command (with --noEmit) on it, which reads the
		// package's typings of toolsim/engine, and of toolsim/vitest from
		// a .mts and a .cts file.
		ts := typescript(t, root)
		adapter, tsc := readmeTypeScript(t, root)
		p := newProject(t)
		npm(t, p, 0, "npm", "install", "--offline", "--no-audit", "--no-fund", mainTgz, hostTgz)
		ts.link(t, p)
		copyExample(t, root, p, "engine.mjs", "engine.d.mts")
		p.write(t, "adapter.mts", adapter)
		p.write(t, "helper.mts", `import { fuzzEngine, runFuzz, type FuzzRun } from 'toolsim/vitest';
const names: string[] = [];
const test = (name: string): void => { names.push(name); };
fuzzEngine({ test, engine: 'node adapter.mjs', seeds: 300, timeout: '30s', faults: ['order'] });
const run: FuzzRun = runFuzz({ engine: 'node adapter.mjs', seeds: 20 });
export const status: number = run.status;
`)
		p.write(t, "helper.cts", `import helper = require('toolsim/vitest');
helper.fuzzEngine({ engine: 'node adapter.mjs', seeds: 300 });
`)
		npm(t, p, 0, "npx", append(append([]string{"--offline"}, tsc...), "--noEmit", "helper.mts", "helper.cts")...)

		// Without npm (README: copy the kit next to the engine and import
		// ./toolsim-engine.mjs instead), the same files compile.
		bare := newProject(t)
		ts.link(t, bare)
		copyExample(t, root, bare, "engine.mjs", "engine.d.mts", "toolsim-engine.mjs", "toolsim-engine.d.mts")
		bare.write(t, "adapter.mts", strings.Replace(adapter, "from 'toolsim/engine'", "from './toolsim-engine.mjs'", 1))
		npm(t, bare, 0, "npx", append(append([]string{"--offline"}, tsc...), "--noEmit")...)
	})

	t.Run("missing-platform-package", func(t *testing.T) {
		// Only the main package: the install still succeeds offline (every
		// platform package is optional), and toolsim says what is missing.
		bare := newProject(t)
		npm(t, bare, 0, "npm", "install", "--offline", "--no-audit", "--no-fund", mainTgz)
		out := npm(t, bare, 2, "npx", "--offline", "toolsim", "version")
		if !strings.Contains(out, host.key()) || !strings.Contains(out, host.pkg()) {
			t.Errorf("npx toolsim version without %s: the message names neither the platform nor the package:\n%s", host.pkg(), out)
		}
		bare.env = append(bare.env, "TOOLSIM_BINARY="+gobin)
		if got := strings.TrimSpace(npm(t, bare, 0, "npx", "--offline", "toolsim", "version")); got != want {
			t.Errorf("with TOOLSIM_BINARY: %q, want %q", got, want)
		}
	})
}

// project is a fresh npm project with its own empty npm cache.
type project struct {
	dir string
	env []string
}

func newProject(t *testing.T) *project {
	t.Helper()
	p := &project{dir: t.TempDir()}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TOOLSIM_BINARY=") && !strings.HasPrefix(kv, "npm_config_") {
			p.env = append(p.env, kv)
		}
	}
	p.env = append(p.env, "npm_config_cache="+t.TempDir(), "npm_config_update_notifier=false")
	p.write(t, "package.json", `{"name": "toolsim-install-test", "version": "1.0.0", "private": true}`+"\n")
	return p
}

func (p *project) write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(p.dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// npm runs a command in the project, wants its exit status, and returns
// its stdout (its stderr too when the status is not 0).
func npm(t *testing.T, p *project, want int, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = p.dir, p.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	if code != want {
		t.Fatalf("%s %s (in %s): exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", name, strings.Join(args, " "), p.dir, code, want, out, stderr.String())
	}
	if want != 0 {
		return string(out) + stderr.String()
	}
	return string(out)
}

// quoteArg quotes a word for toolsim's --engine: in single quotes, a quote doubled.
func quoteArg(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "cmd", "toolsim")); err != nil {
		t.Fatalf("%s is not the repository root: %v", root, err)
	}
	return root
}

func readPackages(t *testing.T, dist string) packages {
	t.Helper()
	var pk packages
	data, err := os.ReadFile(filepath.Join(dist, "packages.json"))
	if err == nil {
		err = json.Unmarshal(data, &pk)
	}
	if err != nil {
		t.Fatalf("%s/packages.json (written by make npm): %v", dist, err)
	}
	return pk
}

func hostPlatform(t *testing.T) platform {
	t.Helper()
	i := slices.IndexFunc(platforms, func(p platform) bool { return p.GOOS == runtime.GOOS && p.GOARCH == runtime.GOARCH })
	if i < 0 {
		t.Skipf("no npm platform package for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	return platforms[i]
}

// goBinary is the Go build of toolsim to compare with: $TOOLSIM_GO_BINARY
// (bin/toolsim under make npm-test), else one built here as make build does.
func goBinary(t *testing.T, root string) string {
	t.Helper()
	if bin := os.Getenv("TOOLSIM_GO_BINARY"); bin != "" {
		return bin
	}
	bin := filepath.Join(t.TempDir(), "toolsim")
	cmd := exec.Command("go", "build", "-buildvcs=auto", "-o", bin, "./cmd/toolsim")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/toolsim: %v\n%s", err, out)
	}
	return bin
}

// versionLine is what bin version prints.
func versionLine(t *testing.T, bin string) string {
	t.Helper()
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", bin, err)
	}
	return strings.TrimSpace(string(out))
}

// tsModules is the node_modules of npm/build/testdata/typescript: the
// TypeScript and @types/node that a new user's npm install -D typescript
// @types/node gives, pinned by its package-lock.json (make npm-test runs
// npm ci there).
type tsModules string

func typescript(t *testing.T, root string) tsModules {
	t.Helper()
	dir := filepath.Join(root, "npm", "build", "testdata", "typescript")
	mods := filepath.Join(dir, "node_modules")
	for _, pkg := range []string{"typescript", "@types/node"} {
		if _, err := os.Stat(filepath.Join(mods, filepath.FromSlash(pkg), "package.json")); err != nil {
			t.Skipf("%s is not installed (%v): npm ci --prefix %s (make npm-test runs it; it needs the npm registry)", pkg, err, dir)
		}
	}
	out, err := exec.Command("node", filepath.Join(mods, "typescript", "bin", "tsc"), "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("tsc --version: %v\n%s", err, out)
	}
	t.Logf("tsc %s, from %s", strings.TrimSpace(string(out)), dir)
	return tsModules(mods)
}

// link puts typescript (with its tsc in node_modules/.bin) and @types/node
// into the project's node_modules, where npm install -D would.
func (m tsModules) link(t *testing.T, p *project) {
	t.Helper()
	for _, l := range []struct{ from, to string }{
		{filepath.Join(string(m), "typescript"), "node_modules/typescript"},
		{filepath.Join(string(m), "@types", "node"), "node_modules/@types/node"},
		{filepath.Join("..", "typescript", "bin", "tsc"), "node_modules/.bin/tsc"},
	} {
		to := filepath.Join(p.dir, filepath.FromSlash(l.to))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(l.from, to); err != nil {
			t.Fatal(err)
		}
	}
}

// readmeTypeScript returns, from README's "Test a TypeScript engine", the
// adapter (the code block importing toolsim/engine) and the tsc command's
// words after npx, which must name adapter.mts and --strict.
func readmeTypeScript(t *testing.T, root string) (adapter string, tsc []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var block []string
	indent, in := "", false
	for line := range strings.Lines(string(data)) {
		trimmed := strings.TrimSpace(line)
		switch {
		case !in && strings.HasPrefix(trimmed, "```"):
			in, indent, block = true, line[:len(line)-len(strings.TrimLeft(line, " "))], nil
		case in && trimmed == "```":
			in = false
			if code := strings.Join(block, ""); strings.Contains(code, "from 'toolsim/engine'") && strings.Contains(code, "await serve(") {
				adapter = code
			}
		case in:
			block = append(block, strings.TrimPrefix(line, indent))
		}
	}
	if adapter == "" {
		t.Fatal("README.md: no code block imports from 'toolsim/engine' and calls await serve(: update this test")
	}
	words := strings.Fields(string(data)) // the command may wrap
	at := -1
	for i := 0; i+1 < len(words) && at < 0; i++ {
		if strings.HasSuffix(words[i], "`npx") && words[i+1] == "tsc" {
			at = i
		}
	}
	if at < 0 {
		t.Fatal("README.md: no `npx tsc … adapter.mts` command: update this test")
	}
	for _, w := range words[at+1:] {
		w, last := strings.CutSuffix(w, "`")
		tsc = append(tsc, w)
		if last || len(tsc) > 20 {
			break
		}
	}
	if tsc[len(tsc)-1] != "adapter.mts" || !slices.Contains(tsc, "--strict") {
		t.Fatalf("README.md's tsc command is %q: want --strict and adapter.mts last; update this test", tsc)
	}
	return adapter, tsc
}

// copyExample copies files of examples/node into the project.
func copyExample(t *testing.T, root string, p *project, names ...string) {
	t.Helper()
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, "examples", "node", name))
		if err != nil {
			t.Fatal(err)
		}
		p.write(t, name, string(data))
	}
}
