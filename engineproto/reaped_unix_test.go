//go:build unix

package engineproto_test

import (
	"errors"
	"syscall"
)

// reaped reports whether the process is gone (not even a zombie).
func reaped(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }
