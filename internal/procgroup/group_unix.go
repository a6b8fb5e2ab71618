//go:build unix

package procgroup

import (
	"os"
	"syscall"
)

// Attr starts a command as the leader of a new process group, so that
// Signal reaches whatever it starts too.
func Attr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// Signal sends sig to every process of the group p leads. It is safe from
// any goroutine, and after the leader is gone (it then reaches the
// stragglers it left).
func Signal(p *os.Process, sig syscall.Signal) { syscall.Kill(-p.Pid, sig) }
