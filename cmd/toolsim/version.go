package main

import (
	"fmt"
	"runtime/debug"
	"strings"
)

// version prints the module version and the VCS revision the binary was
// built from.
func (c *cli) version(args []string) int {
	if len(args) > 0 {
		fmt.Fprintln(c.stderr, "usage: toolsim version (or toolsim --version)")
		return exitUsage
	}
	bi, ok := debug.ReadBuildInfo()
	fmt.Fprintln(c.stdout, versionString(bi, ok))
	return exitOK
}

// versionString is "toolsim VERSION revision REV[-dirty] (TIME) GOVERSION":
// VERSION is the main module's ((devel) for a build from a checkout), the
// revision and its commit time come from the VCS stamp Go embeds (absent
// under go run or -buildvcs=false: "revision unknown").
func versionString(bi *debug.BuildInfo, ok bool) string {
	if !ok || bi == nil {
		return "toolsim (unknown version: no build information)"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	var b strings.Builder
	fmt.Fprintf(&b, "toolsim %s", v)
	if rev := settings["vcs.revision"]; rev != "" {
		fmt.Fprintf(&b, " revision %s", rev)
		if settings["vcs.modified"] == "true" {
			b.WriteString("-dirty")
		}
		if t := settings["vcs.time"]; t != "" {
			fmt.Fprintf(&b, " (%s)", t)
		}
	} else {
		b.WriteString(" revision unknown")
	}
	fmt.Fprintf(&b, " %s", bi.GoVersion)
	return b.String()
}
