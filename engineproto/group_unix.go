//go:build unix

package engineproto

import "syscall"

// groupAttr starts the engine as the leader of a new process group, so
// that killGroup ends whatever it started too.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// killGroup sends SIGKILL to every process of the group. It is safe to
// call from any goroutine, and after the leader is gone (it then ends the
// stragglers it left).
func (p *process) killGroup() { syscall.Kill(-p.pid(), syscall.SIGKILL) }
