//go:build unix

package main

import "syscall"

// mkfifo makes a named pipe (the scripts' fifo command).
func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// killGroup kills what is left of a process group (the scripts' gone
// command, when it failed).
func killGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }
