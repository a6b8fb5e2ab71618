package engineproto

import (
	"io"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/toolsim/toolsim/internal/procgroup"
)

// groups are the process groups of the engines running, for KillAll.
var groups = struct {
	sync.Mutex
	live map[*process]struct{}
}{live: map[*process]struct{}{}}

// KillAll kills the process group of every engine still running, for a
// program about to exit on a signal: engines run in their own groups, so
// the terminal's Ctrl-C does not reach them.
func KillAll() {
	groups.Lock()
	defer groups.Unlock()
	for p := range groups.live {
		p.killGroup()
	}
}

// WaitDelay bounds how long reaping an engine waits for its output pipes
// to close once its process group is dead: a process that left the group
// (setsid, a daemon) may still hold them. It is also the exec.Cmd's
// WaitDelay.
const WaitDelay = 2 * time.Second

// process is a running engine: the leader of its own process group (the
// command, often a wrapper such as npx, uv run or a shell script, and
// everything it starts), with its three pipes. Standard output and error
// are plain pipes read by goroutines of ours, so that reaping the leader
// never waits on a grandchild that holds them.
type process struct {
	cmd        *exec.Cmd
	stdin      io.WriteCloser
	stdout     *os.File // read end
	stderr     *os.File // read end
	stderrDone chan struct{}
	exited     chan struct{} // closed when the leader has been reaped
	waitErr    error         // the leader's exit, valid after exited
}

// startProcess starts argv in a new process group, copying its standard
// error to errTail.
func startProcess(argv []string, errTail io.Writer) (*process, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.SysProcAttr = procgroup.Attr()
	cmd.WaitDelay = WaitDelay
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	p := &process{cmd: cmd, stdin: stdin, stdout: outR, stderr: errR,
		stderrDone: make(chan struct{}), exited: make(chan struct{})}
	// Start and register under the lock, so that a KillAll (Ctrl-C) never
	// falls between the two and misses a group that is already running.
	groups.Lock()
	err = cmd.Start()
	if err == nil {
		groups.live[p] = struct{}{}
	}
	groups.Unlock()
	outW.Close() // the child holds its own copies
	errW.Close()
	if err != nil {
		outR.Close()
		errR.Close()
		return nil, err
	}
	go func() {
		io.Copy(errTail, errR)
		close(p.stderrDone)
	}()
	go func() {
		p.waitErr = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// pid is the leader's process id, which is also the group's id (0 for a
// process served on a goroutine, as tests do: export_test.go).
func (p *process) pid() int {
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// killGroup sends SIGKILL to every process of the group (procgroup.Signal);
// a served process ends when its input closes instead.
func (p *process) killGroup() {
	if p.cmd != nil {
		procgroup.Signal(p.cmd.Process, syscall.SIGKILL)
	}
}

// reap kills the group, waits for the leader, and waits at most WaitDelay
// for the output pipes to close; drain reads standard output meanwhile
// and returns when it reaches the end. It reports whether a process
// outside the group still held the pipes (they are then closed on our
// side, so nothing stays blocked).
func (p *process) reap(drain func()) (escaped bool) {
	p.stdin.Close()
	p.killGroup()
	<-p.exited
	p.killGroup() // anything started between the first kill and the leader's death
	drained := make(chan struct{})
	go func() {
		drain()
		close(drained)
	}()
	deadline := time.NewTimer(WaitDelay)
	defer deadline.Stop()
	for _, done := range []chan struct{}{drained, p.stderrDone} {
		select {
		case <-done:
		case <-deadline.C:
			escaped = true
			p.stdout.Close()
			p.stderr.Close()
			<-done
		}
	}
	p.stdout.Close()
	p.stderr.Close()
	groups.Lock()
	delete(groups.live, p)
	groups.Unlock()
	return escaped
}
