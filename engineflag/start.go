package engineflag

import (
	"fmt"
	"time"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/internal/shquote"
)

// Engine is what the flags start: the engines to check and the options to
// check them with.
type Engine struct {
	// New makes a fresh engine under test: the reference engine, or one
	// more session of the external engine.
	New func() harness.Engine
	// Options are the flags' options; for an external engine narrowed to
	// what it declared (harness.Declared), for the reference engine with
	// toolsim's own log round trip (SelfCheck).
	Options harness.Options
	// AllTraces runs the log round trip on every trace, not only on the
	// traces toolsim generated (--self-check).
	AllTraces bool
	// Args repeats the flags for a reproduce command (" --engine … ").
	Args string
	// Close stops the external engine, if any.
	Close func()
}

// UsageError is a flag value Start cannot use.
type UsageError struct{ Msg string }

// Error is the message.
func (e *UsageError) Error() string { return e.Msg }

// Start checks the flags and starts the engine they choose. A bad flag is
// a *UsageError; an external engine that cannot start gives its
// engineproto error.
func (f *Flags) Start() (*Engine, error) {
	opts, err := f.Options()
	if err != nil {
		return nil, &UsageError{err.Error()}
	}
	if f.Cmd == "" {
		if f.Diff {
			return nil, &UsageError{"--diff needs --engine"}
		}
		// The reference engine is toolsim's own: its persisted-log round
		// trip is checked too, on the traces toolsim generated (or on
		// every trace with --self-check).
		opts.SelfCheck = true
		return &Engine{New: reference, Options: opts, AllTraces: f.SelfCheck, Args: f.optionArgs(), Close: func() {}}, nil
	}
	if f.Timeout <= 0 {
		return nil, &UsageError{"--timeout must be positive"}
	}
	argv := engineproto.SplitCommand(f.Cmd)
	if len(argv) == 0 {
		return nil, &UsageError{"--engine: empty command"}
	}
	ext := harness.External(argv[0], argv[1:]...).WithOptions(engineproto.Options{Timeout: f.Timeout,
		MetaTools: metaOrDefault(opts.MetaTools), Features: opts.Features.Strings()})
	info, err := ext.Start()
	if err != nil {
		return nil, err
	}
	e := &Engine{New: ext.New, Options: harness.Declared(opts, info), Args: f.engineArgs(), Close: func() { ext.Close() }}
	if f.Diff {
		e.Options.Reference = reference
	}
	return e, nil
}

func reference() harness.Engine { return engine.New(engine.Options{}) }

// engineArgs repeats an external engine's flags for reproduce commands.
func (f *Flags) engineArgs() string {
	s := " --engine " + shquote.Quote(f.Cmd)
	if f.Timeout != engineproto.DefaultTimeout {
		s += " --timeout " + durationArg(f.Timeout)
	}
	if f.Diff {
		s += " --diff"
	}
	return s + f.optionArgs()
}

// metaOrDefault is the meta tool list sent to an engine: nil means the
// default set.
func metaOrDefault(names []string) []string {
	if names == nil {
		return engine.DefaultMetaTools
	}
	return names
}

// durationArg spells a duration for a command line the way a user would
// type it: whole seconds as "60s", whole milliseconds as "1500ms", any
// other as time.Duration.String (e.g. "1.5µs"); each parses back to d.
func durationArg(d time.Duration) string {
	switch {
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	case d%time.Millisecond == 0:
		return fmt.Sprintf("%dms", d/time.Millisecond)
	}
	return d.String()
}
