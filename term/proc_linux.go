package term

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// family finds the processes of one Term on Linux, from /proc: those of
// the leader's process group or session, those holding the pty's slave
// side open, the descendants of any of them, and those recorded by an
// earlier scan (a descendant whose parent died is reparented away from
// the family, so it is found only if recorded while the chain held).
type family struct {
	leader int            // the leader's pid, also its pgid and sid
	tty    string         // the pty's slave side, e.g. /dev/pts/3
	known  map[int]uint64 // recorded pid -> its start time
	self   map[int]bool   // never signalled: this process, init
}

// newFamily starts the record of leader's family.
func newFamily(leader int, tty string) *family {
	return &family{
		leader: leader, tty: tty, known: map[int]uint64{},
		self: map[int]bool{os.Getpid(): true, 1: true, 0: true},
	}
}

// proc is one line of /proc/PID/stat, the fields family needs.
type proc struct {
	pid, ppid, pgrp, sid int
	start                uint64 // since boot, in clock ticks: with pid, names one process
	alive                bool
}

// scan reads /proc, records the family's members, and returns the live
// ones. Without /proc it finds none.
func (f *family) scan() []int {
	procs := readProcs()
	member := map[int]bool{}
	for _, p := range procs {
		start, recorded := f.known[p.pid]
		if !f.self[p.pid] && ((recorded && start == p.start) || p.pgrp == f.leader || p.sid == f.leader) {
			member[p.pid] = true
		}
	}
	for _, p := range procs {
		if !member[p.pid] && !f.self[p.pid] && p.alive && holds(p.pid, f.tty) {
			member[p.pid] = true
		}
	}
	addDescendants(procs, member, f.self)
	var live []int
	for _, p := range procs {
		if member[p.pid] {
			f.known[p.pid] = p.start
			if p.alive {
				live = append(live, p.pid)
			}
		}
	}
	return live
}

// addDescendants adds to member every process whose parent is a member.
func addDescendants(procs []proc, member, skip map[int]bool) {
	for grew := true; grew; {
		grew = false
		for _, p := range procs {
			if !member[p.pid] && !skip[p.pid] && member[p.ppid] {
				member[p.pid] = true
				grew = true
			}
		}
	}
}

// readProcs reads every /proc/PID/stat; processes that vanish meanwhile
// are left out.
func readProcs() []proc {
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	procs := make([]proc, 0, len(paths))
	for _, path := range paths {
		if p, ok := readProc(path); ok {
			procs = append(procs, p)
		}
	}
	return procs
}

// readProc parses one /proc/PID/stat.
func readProc(path string) (proc, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return proc{}, false
	}
	// The command name may hold spaces and parentheses: the fields
	// start after the last ')'.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return proc{}, false
	}
	// f[0] state, f[1] ppid, f[2] pgrp, f[3] session, f[6] flags,
	// f[19] starttime
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 20 {
		return proc{}, false
	}
	p := proc{}
	p.pid, _ = strconv.Atoi(filepath.Base(filepath.Dir(path)))
	p.ppid, _ = strconv.Atoi(f[1])
	p.pgrp, _ = strconv.Atoi(f[2])
	p.sid, _ = strconv.Atoi(f[3])
	p.start, _ = strconv.ParseUint(f[19], 10, 64)
	flags, _ := strconv.ParseUint(f[6], 10, 64)
	p.alive = f[0] != "Z" && f[0] != "X" && flags&pfExiting == 0 &&
		!killPending(filepath.Join(filepath.Dir(path), "status"))
	return p, true
}

// pfExiting is the kernel's PF_EXITING task flag: the process has begun
// to exit.
const pfExiting = 0x4

// sigkillBit is SIGKILL's bit in /proc's signal masks.
const sigkillBit = 1 << (9 - 1)

// killPending reports whether a SIGKILL waits for the process: it dies as
// soon as it is scheduled, so it counts as gone.
func killPending(status string) bool {
	data, err := os.ReadFile(status)
	if err != nil {
		return true // gone meanwhile
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		name, mask, ok := strings.Cut(line, ":")
		if !ok || (name != "SigPnd" && name != "ShdPnd") {
			continue
		}
		if m, err := strconv.ParseUint(strings.TrimSpace(mask), 16, 64); err == nil && m&sigkillBit != 0 {
			return true
		}
	}
	return false
}

// holds reports whether process pid has tty open (any of its descriptors).
func holds(pid int, tty string) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd"
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if target, err := os.Readlink(filepath.Join(dir, e.Name())); err == nil && target == tty {
			return true
		}
	}
	return false
}

// orphanKill has the kernel kill the program if this process dies first
// (PR_SET_PDEATHSIG): a toolsim-agent killed without a chance to Close
// leaves no app running in its own session.
func orphanKill(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
