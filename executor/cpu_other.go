//go:build !unix

package executor

import "time"

// cpuTime is unknown here: the benchmark reports no CPU time.
func cpuTime() time.Duration { return -1 }
