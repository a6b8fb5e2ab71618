//go:build windows

package engineproto_test

import "os"

// reaped reports whether the process is gone: Windows finds no process
// with that id once it has exited and its last handle is closed.
func reaped(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}
