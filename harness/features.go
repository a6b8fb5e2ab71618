package harness

import (
	"fmt"
	"slices"
	"strings"
)

// FeatureNames lists the parts of SPEC §2 an engine may support
// (Options.Features): tool calls are always on; the others can be left
// out, and a campaign then generates none of them.
var FeatureNames = []string{
	"tools", "text", "thinking", "user", "cancel", "errors",
	"permissions", "subagents", "delegation", "meta", "progress",
}

// ParseFeatures reads a comma-separated feature list; "all" (or "") means
// every feature (nil). "tools" is implied.
func ParseFeatures(list string) ([]string, error) {
	if list == "" || list == "all" {
		return nil, nil
	}
	out := []string{"tools"}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if !slices.Contains(FeatureNames, n) {
			return nil, fmt.Errorf("unknown feature %q (features: %s)", n, strings.Join(FeatureNames, ", "))
		}
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out, nil
}
