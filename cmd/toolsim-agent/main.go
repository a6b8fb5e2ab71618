// Command toolsim-agent serves a real agent app — Codex CLI, Gemini CLI,
// Claude Code or opencode, as npm ci installed it under examples/NAME —
// as a toolsim engine over toolsim-engine/1 (docs/protocol.md):
//
//	toolsim fuzz --engine 'toolsim-agent --agent claude' --workers 2
//
// Each process starts one app in a pseudo-terminal, with toolsim's model
// API and MCP server in front of it, and serves scenario after scenario
// through the app's new-session command. toolsim plays the model and the
// tools and reads the terminal; package agent has the mapping and the
// settle rule (docs/agents.md). The engine declares the screen and
// tool-rows capabilities: toolsim's screen oracles judge the rows, and
// the model compares the calls alone. A setup problem (the app not
// installed, not starting) exits 2 naming the fix.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/toolsim/toolsim/agent"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/sessionlog"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, in io.Reader, out, errw io.Writer) int {
	fs := flag.NewFlagSet("toolsim-agent", flag.ContinueOnError)
	fs.SetOutput(errw)
	name := fs.String("agent", "", "the app: "+strings.Join(agent.Names(), ", "))
	examples := fs.String("examples", "examples", "the directory holding NAME/node_modules (npm ci --prefix examples/NAME)")
	bin := fs.String("bin", "", "the app's binary, instead of the one under --examples")
	logPath := fs.String("log", "", "write the app's terminal output and the servers' logs to this file")
	screens := fs.String("screens", "", "write every screen the engine read, after the event it followed, to this file")
	screen := fs.Bool("screen", false, "start the app, print its first screen and exit (to write a profile's screen reader)")
	resume := fs.Bool("resume", false, "the resume oracle: at each scenario's end quit the app and resume it; its rows must be the live ones. Also declares the crash capability: a trace's crash point (the crash fault) kills the app mid-turn and resumes it")
	sessionLog := fs.Bool("session-log", false, "the session-log oracle: at each scenario's end read the app's own session log and hold its calls to what toolsim sent (docs/agents.md)")
	keepLogs := fs.String("keep-logs", "", "keep each scenario's session log, beside the events toolsim sent, in a directory of `DIR` named after the app and the events' hash")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *name == "" || fs.NArg() > 0 {
		fmt.Fprintf(errw, "usage: toolsim-agent --agent NAME [--examples DIR] [--bin PATH] [--log FILE]\nagents: %s\n", strings.Join(agent.Names(), ", "))
		return 2
	}
	p, err := agent.Lookup(*name)
	if err != nil {
		fmt.Fprintf(errw, "toolsim-agent: %v\n", err)
		return 2
	}
	opts := agent.Options{Examples: *examples, Bin: *bin, Resume: *resume, KeepLogs: *keepLogs}
	if *sessionLog {
		opts.CompareLog = func(name string, data []byte, format string, sent []event.Event) error {
			return sessionlog.Compare(sent, name, data, format)
		}
	}
	closeFiles, err := create(map[string]*io.Writer{*logPath: &opts.Log, *screens: &opts.Screens})
	defer closeFiles()
	if err != nil {
		fmt.Fprintf(errw, "toolsim-agent: %v\n", err)
		return 2
	}
	if *screen {
		return first(p, opts, out, errw)
	}
	return serve(p, opts, in, out, errw)
}

// create creates each file named (the empty name none) and points its
// writer at it; the function returned closes them.
func create(files map[string]*io.Writer) (func(), error) {
	var opened []*os.File
	closeAll := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	for path, to := range files {
		if path == "" {
			continue
		}
		f, err := os.Create(path)
		if err != nil {
			return closeAll, err
		}
		opened = append(opened, f)
		*to = f
	}
	return closeAll, nil
}

// first starts the app and prints the screen it waits for a prompt on.
func first(p *agent.Profile, opts agent.Options, out, errw io.Writer) int {
	a, err := agent.Start(p, opts, time.Now)
	if err != nil {
		fmt.Fprintf(errw, "toolsim-agent: %v\n", err)
		return 2
	}
	defer a.Close()
	fmt.Fprintf(out, "%s\n", a.Term.Snapshot())
	return 0
}

// serve starts the app and answers toolsim until its input ends.
func serve(p *agent.Profile, opts agent.Options, in io.Reader, out, errw io.Writer) int {
	a, err := agent.Start(p, opts, time.Now)
	if err != nil {
		fmt.Fprintf(errw, "toolsim-agent: %v\n", err)
		var se *agent.SetupError
		if errors.As(err, &se) {
			return 2
		}
		return 1
	}
	defer a.Close()
	stopOnSignal(a, errw)
	fmt.Fprintf(errw, "toolsim-agent: %s %s started in %v\n", p.Name, p.Version, a.Started.Round(time.Millisecond))
	caps := []string{engineproto.CapScreen, engineproto.CapToolRows}
	if opts.Resume {
		caps = append(caps, engineproto.CapCrash)
	}
	err = engineproto.Serve(in, out, engineproto.ServeOptions{
		New:    func([]string) engineproto.Engine { return agent.NewEngine(a, agent.DefaultTiming) },
		Fields: []string{}, Full: true, NoGrouping: true, FlushEach: true,
		Features: p.Features, Contract: p.Contract,
		Capabilities: caps,
	})
	if err != nil {
		fmt.Fprintf(errw, "toolsim-agent: %v\n", err)
		return 1
	}
	return 0
}

// stopOnSignal ends the app's whole process tree and exits when toolsim
// (or a user) interrupts or terminates this process: the app runs in a
// session of its own, which no signal to this process's group reaches.
func stopOnSignal(a *agent.App, errw io.Writer) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		s := <-sig
		fmt.Fprintf(errw, "toolsim-agent: %v: stopping %s\n", s, a.P.Name)
		a.Close()
		os.Exit(1)
	}()
}
