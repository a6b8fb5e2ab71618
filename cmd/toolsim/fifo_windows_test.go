//go:build windows

package main

import "errors"

// mkfifo fails: Windows has no named pipes in the file system, and the
// scripts that wait on one are for process groups, which it lacks too.
func mkfifo(string) error { return errors.New("fifo: named pipes are not supported on Windows") }

// killGroup does nothing: Windows has no process groups to kill.
func killGroup(int) {}
