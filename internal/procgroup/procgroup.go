// Package procgroup runs commands as process groups: Attr starts one as a
// group's leader and Signal reaches the whole group (on Windows, the
// process itself). Live and CheckGone tell which processes of a group are
// still alive, for tests that check that no child outlives a run; they
// read Linux's /proc, and elsewhere report that they cannot tell.
package procgroup

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// pfExiting is the kernel's PF_EXITING task flag: the process has begun
// to exit.
const pfExiting = 0x4

// sigkill is SIGKILL's bit in /proc's signal masks.
const sigkill = 1 << (9 - 1)

// Live returns the processes of group pgid that are alive: not zombies,
// not exiting, and with no SIGKILL pending.
func Live(pgid int) ([]int, error) {
	stats, err := filepath.Glob("/proc/[0-9]*/stat")
	if err != nil || len(stats) == 0 {
		return nil, fmt.Errorf("cannot list processes: /proc is not readable (%v)", err)
	}
	var live []int
	for _, path := range stats {
		pid, alive := alive(path, pgid)
		if alive {
			live = append(live, pid)
		}
	}
	return live, nil
}

// alive reads one /proc/PID/stat; a process that vanished is not alive.
func alive(path string, pgid int) (int, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
	// The command name may hold spaces and parentheses: the fields
	// start after the last ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	// f[0] state, f[1] ppid, f[2] pgrp, ..., f[6] flags
	if len(f) < 7 || f[2] != strconv.Itoa(pgid) || f[0] == "Z" || f[0] == "X" {
		return pid, false
	}
	if flags, _ := strconv.ParseUint(f[6], 10, 64); flags&pfExiting != 0 {
		return pid, false
	}
	return pid, !killPending(filepath.Join(filepath.Dir(path), "status"))
}

// killPending reports whether a SIGKILL waits for the process (it dies
// as soon as it is scheduled).
func killPending(status string) bool {
	data, err := os.ReadFile(status)
	if err != nil {
		return true // gone meanwhile
	}
	for _, line := range strings.Split(string(data), "\n") {
		name, mask, ok := strings.Cut(line, ":")
		if !ok || (name != "SigPnd" && name != "ShdPnd") {
			continue
		}
		if m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64); err == nil && m&sigkill != 0 {
			return true
		}
	}
	return false
}

// ErrLeft reports processes that outlived a run.
var ErrLeft = errors.New("processes left behind")

// CheckGone returns ErrLeft (with the pids) when group pgid still has a
// live process.
func CheckGone(pgid int) error {
	live, err := Live(pgid)
	if err != nil {
		return err
	}
	if len(live) > 0 {
		return fmt.Errorf("%w: process group %d still has %v", ErrLeft, pgid, live)
	}
	return nil
}
