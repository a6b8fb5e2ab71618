//go:build windows

package engineproto

import "syscall"

// groupAttr starts the engine in a new process group (no console signals
// from toolsim's own Ctrl-C reach it; toolsim ends it itself).
func groupAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killGroup ends the engine's process. Windows has no process-group kill
// without a job object, so a grandchild the engine started and left behind
// is not ended; the pipes are still closed on toolsim's side (see reap).
func (p *process) killGroup() { p.cmd.Process.Kill() }
