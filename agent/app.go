package agent

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/mcptools"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// Options configure an App.
type Options struct {
	// Examples is the directory holding examples/<agent>/node_modules
	// ("examples" when empty).
	Examples string
	// Bin, when set, is the app's binary, instead of the one npm ci
	// installed under Examples.
	Bin string
	// Cols and Rows are the terminal's size (120×200 when zero: tall
	// enough that a scenario's rows never scroll off the screen, which
	// the reader cannot see).
	Cols, Rows int
	// StartTimeout bounds the app's start-up (45 s when zero: less than toolsim's default message timeout).
	StartTimeout time.Duration
	// Log, when set, gets the app's raw terminal output and the servers'
	// logs.
	Log io.Writer
	// Screens, when set, gets every screen the engine read, each after a
	// line naming the event: what to look at when a reader misreads.
	Screens io.Writer
	// Resume turns the resume oracle on: at the end of each scenario the
	// app is quit with its own quit command and started again with its
	// resume arguments, and the resumed screen's rows must be the rows it
	// showed live (docs/agents.md, After resume).
	Resume bool
	// CompareLog, when set, turns the session-log oracle on: at the end
	// of each scenario the app finished, its own session log (name, data,
	// in toolsim's import format) is held to the events acted out (sent);
	// an error is the oracle's finding. cmd/toolsim-agent wires package
	// sessionlog here: an engine does not import toolsim's importers.
	CompareLog func(name string, data []byte, format string, sent []event.Event) error
	// KeepLogs, when set, is a directory where each scenario's session
	// log is kept with the events acted out (docs/agents.md).
	KeepLogs string
}

// SetupError is a setup problem: the app is not installed, or it did not
// start. toolsim-agent exits 2 on it.
type SetupError struct{ Err error }

func (e *SetupError) Error() string { return e.Err.Error() }
func (e *SetupError) Unwrap() error { return e.Err }

// App is one running agent app, with the model API and the MCP server it
// talks to, in a directory of its own that Close removes.
type App struct {
	P     *Profile
	Term  *term.Term
	Model *modelapi.Server
	Tools *mcptools.Server
	Env   Env
	dir   string
	used  bool // a scenario ran: the next needs the new-session command
	// screens is Options.Screens; clock stamps its entries.
	screens io.Writer
	clock   func() time.Time
	// Started is how long the app took from its (last) start to its
	// first prompt.
	Started time.Duration
	// bin, opts and launch start the app again (Restart).
	bin    string
	opts   Options
	launch *Launch
}

// serverName is the MCP server's name in every app's configuration.
const serverName = "toolsim"

// Start installs nothing: it finds the app npm ci installed, starts the
// servers, writes the app's configuration, starts it in a terminal and
// waits for its first prompt. clock is the wall clock, read only to
// report the start-up time.
func Start(p *Profile, o Options, clock func() time.Time) (*App, error) {
	bin, err := binary(p, o)
	if err != nil {
		return nil, err
	}
	a := &App{P: p, screens: o.Screens, clock: clock, bin: bin, opts: o}
	if err := a.startServers(o.Log); err != nil {
		a.Close()
		return nil, err
	}
	if err := a.startApp(nil); err != nil {
		a.Close()
		return nil, err
	}
	return a, nil
}

// binary finds the app's command.
func binary(p *Profile, o Options) (string, error) {
	if o.Bin != "" {
		return o.Bin, nil
	}
	dir := o.Examples
	if dir == "" {
		dir = "examples"
	}
	bin := filepath.Join(dir, p.Name, "node_modules", ".bin", p.Bin)
	if _, err := os.Stat(bin); err != nil {
		return "", &SetupError{fmt.Errorf("%s (%s %s) is not installed at %s: run npm ci --prefix %s",
			p.Name, p.Package, p.Version, bin, filepath.Join(dir, p.Name))}
	}
	return filepath.Abs(bin)
}

func (a *App) startServers(log io.Writer) error {
	var err error
	if a.Model, err = modelapi.Start(modelapi.Options{Log: log}); err != nil {
		return &SetupError{fmt.Errorf("model API: %w", err)}
	}
	if a.Tools, err = mcptools.New(mcptools.Options{Log: log, ReadOnly: true}); err != nil {
		return &SetupError{fmt.Errorf("MCP server: %w", err)}
	}
	if a.dir, err = os.MkdirTemp("", "toolsim-agent-"+a.P.Name+"-"); err != nil {
		return &SetupError{err}
	}
	a.Env = Env{
		Home: filepath.Join(a.dir, "home"), Work: filepath.Join(a.dir, "work"),
		ModelURL: a.Model.URL(), MCPURL: a.Tools.URL(), Server: serverName,
		Key: "toolsim-dummy-key-0123456789abcdefghij", Tools: a.Tools.Tools(),
	}
	for _, d := range []string{a.Env.Home, a.Env.Work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return &SetupError{err}
		}
	}
	return nil
}

// startApp writes the app's configuration (the first time), starts it
// in a terminal with its arguments and then extra, and waits for its
// first prompt.
func (a *App) startApp(extra []string) error {
	o := a.opts
	if a.launch == nil {
		l, err := a.P.Setup(a.Env)
		if err != nil {
			return &SetupError{fmt.Errorf("%s: writing its configuration: %w", a.P.Name, err)}
		}
		a.launch = &l
	}
	l := *a.launch
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + a.Env.Home, "TERM=xterm-256color",
		"LANG=C.UTF-8", "COLORTERM=truecolor"}
	t0 := a.clock()
	args := append(slices.Clone(l.Args), extra...)
	t, err := term.Start(term.Options{Path: a.bin, Args: args, Env: append(env, l.Env...),
		Dir: a.Env.Work, Cols: cmp.Or(o.Cols, 120), Rows: cmp.Or(o.Rows, 200), Transcript: o.Log})
	if err != nil {
		return &SetupError{fmt.Errorf("%s: %w", a.P.Name, err)} // a.Term stays the last one (Close is safe on it)
	}
	a.Term = t
	if _, err := a.Term.WaitFor(a.P.Name+"'s first prompt", cmp.Or(o.StartTimeout, 45*time.Second), a.P.Ready); err != nil {
		return &SetupError{fmt.Errorf("%s did not start: %w", a.P.Name, err)}
	}
	a.Started = a.clock().Sub(t0)
	return nil
}

// Close ends the app's whole process group, the servers, and removes its
// directory. It is safe on a partly started App.
func (a *App) Close() error {
	var errs []error
	if a.Term != nil {
		errs = append(errs, a.Term.Close())
	}
	if a.Tools != nil {
		a.Tools.Close()
	}
	if a.Model != nil {
		a.Model.Close()
	}
	if a.dir != "" {
		errs = append(errs, os.RemoveAll(a.dir))
	}
	return errors.Join(errs...)
}
