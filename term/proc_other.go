//go:build unix && !linux

package term

import "syscall"

// family is the record of a Term's processes. Without Linux's /proc it
// finds none: Close reaches the process group and the leader only.
type family struct{}

// newFamily returns the empty record.
func newFamily(int, string) *family { return &family{} }

// scan finds nothing.
func (*family) scan() []int { return nil }

// orphanKill does nothing where the kernel cannot kill a child when its
// parent dies.
func orphanKill(*syscall.SysProcAttr) {}
