package term

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/internal/procgroup"
)

// pgrpOf reads pid's process group from /proc; ok is false once the
// process is gone.
func pgrpOf(pid int) (pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	pgrp, err = strconv.Atoi(f[2])
	return pgrp, err == nil
}

// isAlive reports whether pid is alive, by procgroup's reading of /proc
// (zombies and processes with a SIGKILL pending are not).
func isAlive(t *testing.T, pid int) bool {
	t.Helper()
	pgrp, ok := pgrpOf(pid)
	if !ok {
		return false
	}
	live, err := procgroup.Live(pgrp)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Contains(live, pid)
}

// closeCase is a program whose processes Close must end.
type closeCase struct {
	name  string
	mode  string
	args  []string
	pids  int  // how many pids the helper prints
	exits bool // whether the leader exits before Close
}

func TestCloseLeavesNoProcessBehind(t *testing.T) {
	tests := []closeCase{
		// The leader dies of SIGTERM: its stubborn children are
		// reparented before SIGKILL, and found from the first scan.
		{"group and setsid grandchild", "tree", nil, 3, false},
		{"stubborn leader", "tree", []string{"stubborn"}, 3, false},
		// The setsid child's parent exited: only the pty links it.
		{"orphan holding the pty", "orphan", nil, 1, false},
		// The leader exited before Close: its child is still in the group.
		{"child of an exited leader", "leaver", nil, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { checkNoneLeft(t, tt) })
	}
}

// checkNoneLeft starts tt's helper, checks its processes are alive,
// closes it and checks they are not.
func checkNoneLeft(t *testing.T, tt closeCase) {
	term := start(t, tt.mode, Options{Args: tt.args, Grace: 50 * time.Millisecond})
	s := waitText(t, term, `end`)
	family := append(pids(t, s), term.Pid())
	if len(family) != tt.pids+1 {
		t.Fatalf("read pids %v from the screen, want %d:\n%s", family, tt.pids+1, s)
	}
	if tt.exits && !within(term.Done(), testWait) {
		t.Fatal("the leader did not exit")
	}
	for _, pid := range family[:tt.pids] {
		if !isAlive(t, pid) {
			t.Fatalf("pid %d is not alive before Close", pid)
		}
	}
	if err := term.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	for _, pid := range family {
		if isAlive(t, pid) {
			t.Errorf("pid %d outlived Close", pid)
		}
	}
	if err := procgroup.CheckGone(term.Pid()); err != nil {
		t.Error(err)
	}
	if err := term.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}
