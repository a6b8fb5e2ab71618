package fault

import (
	"fmt"
	"strings"
)

// ParseLog reads a list of persistence faults, as Parse does: "all" means
// every log fault, and a trace fault is an error naming it and listing the
// log faults.
func ParseLog(s string) (List, error) {
	faults, err := Parse(s)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(s) == "all" {
		return faults.Log(), nil
	}
	for _, x := range faults {
		if !x.IsLog() {
			return nil, fmt.Errorf("%q is a trace fault; --faults takes persistence faults: %s", x, Log.Join(", "))
		}
	}
	return faults, nil
}
