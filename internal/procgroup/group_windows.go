//go:build windows

package procgroup

import (
	"os"
	"syscall"
)

// Attr starts a command in a new process group: toolsim's own Ctrl-C does
// not reach it, toolsim ends it itself.
func Attr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// Signal ends p: Windows cannot deliver a Unix signal, and has no
// process-group kill without a job object, so every signal is a kill of p
// itself, not of processes it started (the pipes are still closed on
// toolsim's side).
func Signal(p *os.Process, _ syscall.Signal) { p.Kill() }
