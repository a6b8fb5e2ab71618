package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/internal/procgroup"
)

// agentWaitDelay bounds how long record waits for the agent's output to
// close once its process group is dead (a process that left the group
// may still hold it).
const agentWaitDelay = 2 * time.Second

// agent is a recorded agent command: the leader of its own process group,
// so that an interrupt and a kill reach everything it started (npx, a
// shell script and their children). Its standard output is a plain pipe
// that we read, so that reaping the leader never waits on a grandchild.
type agent struct {
	cmd     *exec.Cmd
	out     *os.File      // read end of its standard output
	exited  chan struct{} // closed when the leader has been reaped
	waitErr error         // the leader's exit, valid after exited
}

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
	a := &agent{cmd: cmd, out: outR, exited: make(chan struct{})}
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
// the group if it has not exited stopGrace later; a second one kills the
// group at once. It reports whether an interrupt came.
func (a *agent) supervise(sigs <-chan os.Signal, stderr io.Writer) (interrupted bool) {
	var grace <-chan time.Time
	for {
		select {
		case <-a.exited:
			return interrupted
		case sig := <-sigs:
			if interrupted {
				fmt.Fprintln(stderr, "toolsim record: second interrupt: killed the agent's process group")
				a.signal(syscall.SIGKILL)
				continue
			}
			interrupted = true
			if s, ok := sig.(syscall.Signal); ok {
				a.signal(s)
			}
			t := time.NewTimer(stopGrace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			fmt.Fprintf(stderr, "toolsim record: the agent did not stop within %s of the interrupt: killed its process group\n", stopGrace)
			a.signal(syscall.SIGKILL)
		}
	}
}

// finish kills what the exited agent left running in its group and waits,
// at most agentWaitDelay, for pumped (the reader of its output) to reach
// the end; past that the output is closed on our side.
func (a *agent) finish(pumped <-chan *capture, stderr io.Writer) *capture {
	a.signal(syscall.SIGKILL)
	t := time.NewTimer(agentWaitDelay)
	defer t.Stop()
	select {
	case capt := <-pumped:
		return capt
	case <-t.C:
		fmt.Fprintf(stderr, "toolsim record: a process outside the agent's group still held its output %s after it exited: stopped reading\n", agentWaitDelay)
		a.out.Close()
		return <-pumped
	}
}

// killEnginesOnSignal makes Ctrl-C and SIGTERM end the command with 130
// after killing the engines' process groups (the terminal's Ctrl-C does
// not reach them: each runs in its own group). It returns a function that
// stops watching.
func (c *cli) killEnginesOnSignal(name string) func() {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			engineproto.KillAll()
			fmt.Fprintf(c.stderr, "toolsim %s: interrupted: killed the engine\n", name)
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
	}
}
