package main

import (
	"debug/buildinfo"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// module is the main module's path: build runs from its root.
const module = "github.com/toolsim/toolsim"

// options are the command's flags.
type options struct {
	out, platforms, goCmd, npmCmd string
	release                       bool
}

func main() {
	var o options
	flag.StringVar(&o.out, "out", filepath.Join("dist", "npm"), "directory for the tarballs and packages.json")
	flag.StringVar(&o.platforms, "platforms", "all", "the platform packages to build: all, or comma-separated keys such as linux-x64")
	flag.BoolVar(&o.release, "release", false, "refuse a modified tree (a version with +dirty): for tarballs to publish")
	flag.StringVar(&o.goCmd, "go", "go", "the go command")
	flag.StringVar(&o.npmCmd, "npm", "npm", "the npm command")
	flag.Parse()
	if flag.NArg() != 0 {
		fmt.Fprintln(os.Stderr, "usage: go run ./npm/build [-out DIR] [-platforms LIST] [-release] (from the repository root)")
		os.Exit(2)
	}
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "npm/build:", err)
		os.Exit(1)
	}
}

// packages is DIR/packages.json: what the install test and a publisher read.
type packages struct {
	Version   string            `json:"version"`    // the npm version
	GoVersion string            `json:"go_version"` // the module version the binaries carry
	DistTag   string            `json:"dist_tag"`
	Main      string            `json:"main"`      // the toolsim tarball
	Platforms map[string]string `json:"platforms"` // platform key → its tarball
	Order     []string          `json:"order"`     // every tarball, in publishing order
}

func run(o options, w io.Writer) error {
	root, err := os.Getwd()
	if err != nil {
		return err
	}
	if gomod, err := os.ReadFile(filepath.Join(root, "go.mod")); err != nil || !strings.HasPrefix(string(gomod), "module "+module+"\n") {
		return fmt.Errorf("%s is not the root of %s: run from there (make npm)", root, module)
	}
	selected, err := selectPlatforms(o.platforms)
	if err != nil {
		return err
	}
	tmpl, err := readTemplate(filepath.Join(root, "npm", "toolsim", "package.json"))
	if err != nil {
		return err
	}
	if err := tmpl.checkFiles(); err != nil {
		return fmt.Errorf("npm/toolsim/%w", err)
	}
	stage, err := os.MkdirTemp("", "toolsim-npm-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(stage)
	b := &build{o: o, w: w, root: root, stage: stage, tmpl: tmpl}
	if err := b.binaries(selected); err != nil {
		return err
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	if err := removeOld(o.out); err != nil {
		return err
	}
	if err := b.packAll(selected); err != nil {
		return err
	}
	if err := writeJSON(filepath.Join(o.out, "packages.json"), b.pk); err != nil {
		return err
	}
	b.report()
	return nil
}

// build is one run: where it stages and writes, and what it has made.
type build struct {
	o           options
	w           io.Writer
	root, stage string
	tmpl        manifest
	pk          packages
}

// binaries builds every platform's binary first: the version is read from
// them, and must be one (a tree changed between two builds is caught
// here). It sets the npm version.
func (b *build) binaries(selected []platform) error {
	goVersion, from := "", ""
	for _, p := range selected {
		v, err := buildBinary(b.o.goCmd, b.root, filepath.Join(b.stage, p.key(), "bin", p.exe()), p)
		if err != nil {
			return err
		}
		if goVersion != "" && v != goVersion {
			return fmt.Errorf("the binaries carry two versions, %s (%s) and %s (%s): the tree changed during the build; run it again", goVersion, from, v, p.key())
		}
		goVersion, from = v, p.key()
		fmt.Fprintf(b.w, "built %s: %s\n", p.key(), v)
	}
	version, dirty, err := npmVersion(goVersion)
	if err != nil {
		return err
	}
	if dirty && b.o.release {
		return fmt.Errorf("the tree is modified (%s): commit or stash, or leave out -release", goVersion)
	}
	if dirty {
		fmt.Fprintf(b.w, "warning: built from a modified tree (%s): the npm version %s is the commit's; do not publish these\n", goVersion, version)
	}
	b.pk = packages{Version: version, GoVersion: goVersion, DistTag: distTag(version), Platforms: map[string]string{}}
	return nil
}

// packAll packs the platform packages, then the main one, in publishing
// order.
func (b *build) packAll(selected []platform) error {
	version := b.pk.Version
	for _, p := range selected {
		dir := filepath.Join(b.stage, p.key())
		if err := writeManifest(filepath.Join(dir, "package.json"), platformManifest(b.tmpl, p, version)); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte(platformReadme(p)), 0o644); err != nil {
			return err
		}
		if err := copyFile(filepath.Join(b.root, "LICENSE"), filepath.Join(dir, "LICENSE")); err != nil {
			return err
		}
		tgz, err := pack(b.o.npmCmd, dir, b.o.out, "bin/"+p.exe())
		if err != nil {
			return fmt.Errorf("npm pack %s: %w", p.pkg(), err)
		}
		b.pk.Platforms[p.key()], b.pk.Order = tgz, append(b.pk.Order, tgz)
	}
	dir := filepath.Join(b.stage, "toolsim")
	if err := stageMain(b.root, dir, b.tmpl); err != nil {
		return err
	}
	if err := writeManifest(filepath.Join(dir, "package.json"), mainManifest(b.tmpl, version)); err != nil {
		return err
	}
	tgz, err := pack(b.o.npmCmd, dir, b.o.out, b.tmpl.Bin["toolsim"])
	if err != nil {
		return fmt.Errorf("npm pack toolsim: %w", err)
	}
	b.pk.Main, b.pk.Order = tgz, append(b.pk.Order, tgz)
	return nil
}

// report prints the tarballs and how to publish them.
func (b *build) report() {
	fmt.Fprintf(b.w, "npm version %s (dist-tag %s), in %s:\n", b.pk.Version, b.pk.DistTag, b.o.out)
	for _, t := range b.pk.Order {
		fmt.Fprintf(b.w, "  %s\n", t)
	}
	fmt.Fprintf(b.w, "to publish (docs/npm.md; nothing was published), platform packages first:\n")
	for _, t := range b.pk.Order {
		fmt.Fprintf(b.w, "  npm publish --access public --tag %s %s\n", b.pk.DistTag, filepath.Join(b.o.out, t))
	}
}

// buildBinary cross-compiles cmd/toolsim for p into out and returns the
// module version stamped in it.
func buildBinary(goCmd, root, out string, p platform) (string, error) {
	cmd := exec.Command(goCmd, "build", "-trimpath", "-buildvcs=auto", "-ldflags=-s -w", "-o", out, "./cmd/toolsim")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS="+p.GOOS, "GOARCH="+p.GOARCH, "CGO_ENABLED=0")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build for %s (GOOS=%s GOARCH=%s): %v\n%s", p.key(), p.GOOS, p.GOARCH, err, msg)
	}
	bi, err := buildinfo.ReadFile(out)
	if err != nil {
		return "", fmt.Errorf("reading the build information of %s: %w", out, err)
	}
	return bi.Main.Version, nil
}

// removeOld removes the tarballs and packages.json of an earlier run, so
// that DIR holds one version's packages.
func removeOld(dir string) error {
	old, err := filepath.Glob(filepath.Join(dir, "toolsim-*.tgz"))
	if err != nil {
		return err
	}
	for _, f := range append(old, filepath.Join(dir, "packages.json")) {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}

// pack runs npm pack in dir, writing the tarball into out, and checks that
// the executable file is in it with its executable bit.
func pack(npmCmd, dir, out, executable string) (string, error) {
	abs, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	cmd := exec.Command(npmCmd, "pack", "--json", "--ignore-scripts", "--pack-destination", abs)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%v\n%s", err, stderr.String())
	}
	var res []struct {
		Filename string `json:"filename"`
		Files    []struct {
			Path string `json:"path"`
			Mode int    `json:"mode"`
		} `json:"files"`
	}
	if err := json.Unmarshal(stdout, &res); err != nil || len(res) != 1 {
		return "", fmt.Errorf("reading its --json output (%v): %.500s", err, stdout)
	}
	for _, f := range res[0].Files {
		if f.Path == executable {
			if f.Mode&0o111 == 0 {
				return "", fmt.Errorf("%s is packed without its executable bit (mode %o)", executable, f.Mode)
			}
			return res[0].Filename, nil
		}
	}
	return "", fmt.Errorf("%s holds no %s", res[0].Filename, executable)
}
