//go:build unix

package procgroup_test

import (
	"errors"
	"os/exec"
	"syscall"
	"testing"

	"github.com/toolsim/toolsim/internal/procgroup"
)

func TestLiveAndGone(t *testing.T) {
	cmd := exec.Command("sleep", "7777")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pgid := cmd.Process.Pid
	if err := procgroup.CheckGone(pgid); !errors.Is(err, procgroup.ErrLeft) {
		t.Errorf("a sleeping process: %v, want ErrLeft", err)
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	cmd.Wait()
	if err := procgroup.CheckGone(pgid); err != nil {
		t.Errorf("after the kill: %v", err)
	}
}
