//go:build unix

package term

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"unsafe"

	"github.com/creack/pty"
)

// Start runs o.Path in a new pseudo-terminal of o.Cols×o.Rows, as the
// leader of a new session (so of a new process group) whose controlling
// terminal is that pty, and starts reading its screen. A program that
// cannot be found or started is an error wrapping exec's (errors.Is
// exec.ErrNotFound for a name missing from PATH). Close the Term when
// done.
func Start(o Options) (*Term, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(o.Path, o.Args...)
	if cmd.Err != nil {
		return nil, fmt.Errorf("term: start %s: %w", o.Path, cmd.Err)
	}
	cmd.Env = environ(o.Env)
	cmd.Dir = o.Dir
	ptmx, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("term: start %s: opening a pty: %w", o.Path, err)
	}
	defer tty.Close() // the program holds its own copies
	if err := pty.Setsize(tty, &pty.Winsize{Cols: uint16(o.Cols), Rows: uint16(o.Rows)}); err != nil {
		ptmx.Close()
		return nil, fmt.Errorf("term: start %s: sizing the pty: %w", o.Path, err)
	}
	if ptmx, err = pollable(ptmx); err != nil {
		return nil, fmt.Errorf("term: start %s: %w", o.Path, err)
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	orphanKill(cmd.SysProcAttr)
	if err := cmd.Start(); err != nil {
		ptmx.Close()
		return nil, fmt.Errorf("term: start %s: %w", o.Path, err)
	}
	t := newTerm(o, cmd, ptmx, tty.Name())
	t.run()
	return t, nil
}

// pollable returns f's descriptor as a File in Go's poller, closing f.
// creack/pty reads the pty's name through f.Fd(), which leaves f in
// blocking mode: a blocked Read would then outlive Close, and write
// deadlines would not work.
func pollable(f *os.File) (*os.File, error) {
	syscall.ForkLock.RLock()
	fd, err := syscall.Dup(int(f.Fd()))
	if err == nil {
		syscall.CloseOnExec(fd)
	}
	syscall.ForkLock.RUnlock()
	name := f.Name()
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("duplicating the pty: %w", err)
	}
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, fmt.Errorf("making the pty non-blocking: %w", err)
	}
	return os.NewFile(uintptr(fd), name), nil
}

// setSize sets the pty's window size without f.Fd() (see pollable).
func setSize(f *os.File, cols, rows int) error {
	ws := pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)}
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var errno syscall.Errno
	err = rc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCSWINSZ, uintptr(unsafe.Pointer(&ws)))
	})
	if err != nil {
		return err
	}
	if errno != 0 {
		return errno
	}
	return nil
}
