//go:build unix

package main

import "syscall"

// groupAttr starts the agent as the leader of a new process group.
func groupAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// signal sends sig to the agent's whole process group.
func (a *agent) signal(sig syscall.Signal) { syscall.Kill(-a.cmd.Process.Pid, sig) }
