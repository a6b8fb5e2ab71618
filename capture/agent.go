package capture

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/toolsim/toolsim/internal/procgroup"
)

// stopGrace is how long an agent gets to exit after the interrupt is
// passed on before it is killed.
const stopGrace = 5 * time.Second

// agentWaitDelay bounds how long a recording waits for the agent's output
// to close once its process group is dead (a process that left the group
// may still hold it).
const agentWaitDelay = 2 * time.Second

// agent is a recorded agent command: the leader of its own process group,
// so that an interrupt and a kill reach everything it started. Its
// standard output is a plain pipe that we read, so that reaping the
// leader never waits on a grandchild.
type agent struct {
	cmd     *exec.Cmd
	out     *os.File      // read end of its standard output
	exited  chan struct{} // closed when the leader has been reaped
	waitErr error         // the leader's exit, valid after exited
	grace   time.Duration // stopGrace; tests shorten it
	drain   time.Duration // agentWaitDelay; tests shorten it
}

// startAgent starts argv as the leader of a new process group, its
// standard output a pipe, and reaps it when it exits.
func startAgent(argv []string, stdin io.Reader, stderr io.Writer) (*agent, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdin, cmd.Stderr = stdin, stderr
	cmd.SysProcAttr = procgroup.Attr()
	cmd.WaitDelay = agentWaitDelay
	outR, outW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = outW
	err = cmd.Start()
	outW.Close()
	if err != nil {
		outR.Close()
		return nil, err
	}
	a := &agent{cmd: cmd, out: outR, exited: make(chan struct{}), grace: stopGrace, drain: agentWaitDelay}
	go func() {
		a.waitErr = cmd.Wait()
		close(a.exited)
	}()
	return a, nil
}

// signal sends sig to the agent's whole process group (procgroup.Signal).
func (a *agent) signal(sig syscall.Signal) { procgroup.Signal(a.cmd.Process, sig) }

// supervise passes interrupts on to the agent's group until the agent
// exits: the first one as it came (the agent may stop cleanly), killing
// the group if it has not exited a.grace later; a second one kills the
// group at once. It reports whether an interrupt came.
func (a *agent) supervise(sigs <-chan os.Signal, notice func(string)) (interrupted bool) {
	var grace <-chan time.Time
	for {
		select {
		case <-a.exited:
			return interrupted
		case sig := <-sigs:
			if interrupted {
				notice("second interrupt: killed the agent's process group")
				a.signal(syscall.SIGKILL)
				continue
			}
			interrupted = true
			if s, ok := sig.(syscall.Signal); ok {
				a.signal(s)
			}
			t := time.NewTimer(a.grace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			notice(fmt.Sprintf("the agent did not stop within %s of the interrupt: killed its process group", a.grace))
			a.signal(syscall.SIGKILL)
		}
	}
}

// finish kills what the exited agent left running in its group and waits,
// at most a.drain, for pumped (the reader of its output) to reach the
// end; past that the output is closed on our side.
func (a *agent) finish(pumped <-chan *tape, notice func(string)) *tape {
	a.signal(syscall.SIGKILL)
	timer := time.NewTimer(a.drain)
	defer timer.Stop()
	select {
	case t := <-pumped:
		return t
	case <-timer.C:
		notice(fmt.Sprintf("a process outside the agent's group still held its output %s after it exited: stopped reading", a.drain))
		a.out.Close()
		return <-pumped
	}
}
