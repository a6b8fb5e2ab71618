package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
)

// A platform is one npm platform package: its os and cpu as npm and Node
// name them (process.platform, process.arch), and Go's names.
type platform struct {
	OS, CPU, GOOS, GOARCH string
}

// platforms are the platform packages, in publishing order.
var platforms = []platform{
	{OS: "linux", CPU: "x64", GOOS: "linux", GOARCH: "amd64"},
	{OS: "linux", CPU: "arm64", GOOS: "linux", GOARCH: "arm64"},
	{OS: "darwin", CPU: "x64", GOOS: "darwin", GOARCH: "amd64"},
	{OS: "darwin", CPU: "arm64", GOOS: "darwin", GOARCH: "arm64"},
	{OS: "win32", CPU: "x64", GOOS: "windows", GOARCH: "amd64"},
}

// key is the platform as the launcher computes it: `${process.platform}-${process.arch}`.
func (p platform) key() string { return p.OS + "-" + p.CPU }

// pkg is the package's name; npm/toolsim/binary.cjs derives the same.
func (p platform) pkg() string { return "@toolsim/" + p.key() }

// exe is the binary's file name inside the package's bin directory.
func (p platform) exe() string {
	if p.GOOS == "windows" {
		return "toolsim.exe"
	}
	return "toolsim"
}

// selectPlatforms parses -platforms: "all" or comma-separated keys.
func selectPlatforms(list string) ([]platform, error) {
	if list == "all" || list == "" {
		return platforms, nil
	}
	var out []platform
	for _, k := range strings.Split(list, ",") {
		i := slices.IndexFunc(platforms, func(p platform) bool { return p.key() == k })
		if i < 0 {
			var keys []string
			for _, p := range platforms {
				keys = append(keys, p.key())
			}
			return nil, fmt.Errorf("-platforms: unknown platform %q (want all, or some of %s)", k, strings.Join(keys, ","))
		}
		out = append(out, platforms[i])
	}
	return out, nil
}

// manifest is a package.json: the fields of npm/toolsim/package.json
// (a field this type lacks is an error, so that none is dropped) and
// those build writes.
type manifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Private              bool              `json:"private,omitempty"`
	Description          string            `json:"description"`
	License              string            `json:"license,omitempty"`
	Keywords             []string          `json:"keywords,omitempty"`
	Homepage             string            `json:"homepage,omitempty"`
	Repository           json.RawMessage   `json:"repository,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Exports              json.RawMessage   `json:"exports,omitempty"`
	Files                []string          `json:"files"`
	Engines              map[string]string `json:"engines,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

// readTemplate reads the main package's package.json.
func readTemplate(path string) (manifest, error) {
	var m manifest
	data, err := os.ReadFile(path)
	if err != nil {
		return m, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		return m, fmt.Errorf("%s: %w (a field npm/build's manifest type lacks would be dropped: add it there)", path, err)
	}
	return m, nil
}

// exportTargets are the files the template's bin and exports name,
// without their leading "./".
func (m manifest) exportTargets() ([]string, error) {
	var targets []string
	for _, b := range m.Bin {
		targets = append(targets, b)
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			targets = append(targets, strings.TrimPrefix(v, "./"))
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	if len(m.Exports) > 0 {
		var exports any
		if err := json.Unmarshal(m.Exports, &exports); err != nil {
			return nil, fmt.Errorf("exports: %w", err)
		}
		walk(exports)
	}
	slices.Sort(targets)
	return slices.Compact(targets), nil
}

// checkFiles fails when bin or exports names a file the files list leaves out.
func (m manifest) checkFiles() error {
	targets, err := m.exportTargets()
	if err != nil {
		return err
	}
	for _, t := range targets {
		if t != "package.json" && !slices.Contains(m.Files, t) {
			return fmt.Errorf("package.json: bin or exports name %s, which files leaves out", t)
		}
	}
	return nil
}

// mainManifest is the main package's package.json: the template at the
// given version, publishable, listing every platform package at exactly
// that version (also when -platforms built fewer).
func mainManifest(tmpl manifest, version string) manifest {
	m := tmpl
	m.Version, m.Private = version, false
	m.OptionalDependencies = map[string]string{}
	for _, p := range platforms {
		m.OptionalDependencies[p.pkg()] = version
	}
	return m
}

// platformManifest is a platform package's package.json.
func platformManifest(tmpl manifest, p platform, version string) manifest {
	return manifest{
		Name:            p.pkg(),
		Version:         version,
		Description:     fmt.Sprintf("The toolsim binary for %s (GOOS=%s GOARCH=%s), installed by the toolsim package: depend on toolsim, not on this", p.key(), p.GOOS, p.GOARCH),
		License:         tmpl.License,
		Homepage:        tmpl.Homepage,
		Repository:      tmpl.Repository,
		Files:           []string{"bin/" + p.exe(), "LICENSE"},
		OS:              []string{p.OS},
		CPU:             []string{p.CPU},
		PreferUnplugged: true,
	}
}

// writeManifest writes m as DIR/package.json.
func writeManifest(path string, m manifest) error {
	return writeJSON(path, m)
}

// writeJSON writes v indented, with <, > and & as they are (npm's own
// files do not escape them).
func writeJSON(path string, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

// semver is SemVer 2.0's version without build metadata.
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(\.(0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*)?$`)

// npmVersion turns the module version Go stamped into an npm version:
// v1.2.3 → 1.2.3, a pseudo-version v0.0.0-20261127023427-e38e7592f4f7 →
// 0.0.0-20261127023427-e38e7592f4f7. A modified tree's +dirty is dropped
// (npm drops build metadata; dirty reports it).
func npmVersion(goVersion string) (version string, dirty bool, err error) {
	v, ok := strings.CutPrefix(goVersion, "v")
	if !ok {
		return "", false, fmt.Errorf("module version %q: want vX.Y.Z or a pseudo-version (build from a git checkout: -buildvcs=auto stamps it)", goVersion)
	}
	v, meta, _ := strings.Cut(v, "+")
	switch meta {
	case "":
	case "dirty":
		dirty = true
	default:
		return "", false, fmt.Errorf("module version %q: unexpected build metadata +%s", goVersion, meta)
	}
	if !semver.MatchString(v) {
		return "", false, fmt.Errorf("module version %q: %q is not a semantic version npm accepts", goVersion, v)
	}
	return v, dirty, nil
}

// distTag is the npm dist-tag to publish a version under: npm refuses to
// publish a prerelease (a pseudo-version is one) without an explicit tag,
// and a prerelease must not become latest.
func distTag(version string) string {
	if strings.Contains(version, "-") {
		return "next"
	}
	return "latest"
}
