//go:build windows

package main

import "syscall"

// groupAttr starts the agent in a new process group.
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signal ends the agent: Windows cannot deliver a Unix signal to a
// process, so every signal is a kill of the agent's own process (not of
// processes it started).
func (a *agent) signal(syscall.Signal) { a.cmd.Process.Kill() }
