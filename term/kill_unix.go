//go:build unix

package term

import (
	"fmt"
	"syscall"

	"github.com/toolsim/toolsim/internal/procgroup"
)

// killRounds bounds Close's rounds of finding and killing processes: a
// round finds those forked since the last one.
const killRounds = 5

// killTree ends the program's processes: SIGTERM to the family and a
// grace for the leader to exit, then rounds of SIGKILL until a scan finds
// none alive (see the package documentation).
func (t *Term) killTree() error {
	pgid := t.Pid()
	fam := newFamily(pgid, t.tty)
	fam.scan() // record descendants while their parent chain is intact
	if t.grace > 0 && !t.Exited() {
		t.signalAll(fam, syscall.SIGTERM)
		within(t.done, t.grace)
	}
	for range killRounds {
		live := t.signalAll(fam, syscall.SIGKILL)
		if len(live) == 0 {
			return nil
		}
	}
	if live := fam.scan(); len(live) > 0 {
		return fmt.Errorf("term: close %s: %w: %v survived %d rounds of SIGKILL", t.name, procgroup.ErrLeft, live, killRounds)
	}
	return nil
}

// signalAll sends sig to the program's group, to the leader, and to
// every live member of fam, which it rescans first; it returns the
// members it signalled.
func (t *Term) signalAll(fam *family, sig syscall.Signal) []int {
	live := fam.scan()
	_ = syscall.Kill(-t.Pid(), sig)
	_ = t.cmd.Process.Signal(sig) // safe after the leader was reaped
	for _, pid := range live {
		_ = syscall.Kill(pid, sig)
	}
	return live
}
