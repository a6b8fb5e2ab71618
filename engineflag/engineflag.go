package engineflag

import (
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/internal/shquote"
	"github.com/toolsim/toolsim/sim"
)

// Flags are the flag values; the zero value is the reference engine with
// every oracle. Register sets their defaults.
type Flags struct {
	Cmd        string        // --engine: an external engine's command line
	Diff       bool          // --diff: compare with the reference engine too
	Timeout    time.Duration // --timeout: per message, for an external engine
	Features   string        // --features
	MetaTools  string        // --meta-tools ("none" for none)
	NoGrouping bool          // --no-grouping
	SelfCheck  bool          // --self-check: the log round trip on every trace
	Contract   string        // --contract
	Documented string        // --documented
	ByDesign   string        // --by-design
	Robustness bool          // --robustness
}

// Register adds the flags to fs. judge adds those of the commands that
// judge an engine (check, fuzz, shrink): --diff, --contract, --documented,
// --by-design and --robustness.
func (f *Flags) Register(fs *flag.FlagSet, judge bool) {
	fs.StringVar(&f.Cmd, "engine", "", "drive this engine command over the toolsim-engine/1 protocol instead of the reference engine, e.g. 'python3 engine.py' (docs/protocol.md)")
	fs.DurationVar(&f.Timeout, "timeout", engineproto.DefaultTimeout, "with --engine: how long the engine may take to answer one message")
	if judge {
		fs.BoolVar(&f.Diff, "diff", false, "with --engine: also compare the engine with the reference engine after every event, in the fields it declared")
	}
	fs.StringVar(&f.Features, "features", "all", "the parts of SPEC §2 the engine supports, comma-separated: "+strings.Join(sim.AllFeatures.Strings(), ",")+" (an engine's own declaration narrows it)")
	fs.StringVar(&f.MetaTools, "meta-tools", "", "comma-separated meta tool names (default: "+strings.Join(engine.DefaultMetaTools, ",")+"; 'none' for none)")
	fs.BoolVar(&f.NoGrouping, "no-grouping", false, "the engine shows every call on its own row (no groups); every other oracle still runs")
	fs.BoolVar(&f.SelfCheck, "self-check", false, "also run toolsim's own persisted-log oracles (live == rebuilt, reconnect, replay twice) on traces toolsim did not generate")
	if judge {
		f.registerContract(fs)
	}
}

// registerContract adds --contract, --documented, --by-design and
// --robustness.
func (f *Flags) registerContract(fs *flag.FlagSet) {
	behaviours := make([]string, len(contract.Behaviours))
	for i, b := range contract.Behaviours {
		behaviours[i] = string(b)
	}
	fs.StringVar(&f.Contract, "contract", "", "what the engine's real upstream never sends, comma-separated (docs/simulator.md, Contracts): executor, all, none or "+strings.Join(contract.All.Names(), ",")+" (default: the engine's own declaration)")
	fs.StringVar(&f.Documented, "documented", "", "the library's documented behaviours, comma-separated: "+strings.Join(behaviours, ",")+" (default: the engine's own declaration)")
	fs.StringVar(&f.ByDesign, "by-design", "", "the library's behaviours by design, undocumented (its code or a PR shows them), comma-separated, from the same names (default: the engine's own declaration)")
	what := "also explore and report inputs outside the engine's contract, each labelled robustness"
	if fs.Name() != "fuzz" { // check and shrink judge the traces given, they explore nothing
		what = "judge a trace outside the engine's contract too, its failures labelled robustness"
	}
	fs.BoolVar(&f.Robustness, "robustness", false, "robustness mode: "+what)
}

// Options reads the flags that shape the oracles, whatever the engine. An
// error names the flag.
func (f *Flags) Options() (harness.Options, error) {
	var o harness.Options
	feats, err := sim.ParseFeatures(f.Features)
	if err != nil {
		return o, fmt.Errorf("--features: %w", err)
	}
	if f.Features != "" && f.Features != "all" {
		o.Features = feats
	}
	o.NoGrouping = f.NoGrouping
	if o.Contract.Guarantees, err = contract.Parse(f.Contract); err != nil {
		return o, fmt.Errorf("--contract: %w", err)
	}
	if o.Contract.Documented, err = contract.ParseBehaviours(strings.Split(f.Documented, ",")); err != nil {
		return o, fmt.Errorf("--documented: %w", err)
	}
	if o.Contract.ByDesign, err = contract.ParseBehaviours(strings.Split(f.ByDesign, ",")); err != nil {
		return o, fmt.Errorf("--by-design: %w", err)
	}
	if err = o.Contract.Check(); err != nil {
		return o, fmt.Errorf("--documented and --by-design: %w", err)
	}
	switch f.MetaTools {
	case "":
	case "none":
		o.MetaTools = []string{}
	default:
		o.MetaTools = strings.Split(f.MetaTools, ",")
	}
	return o, nil
}

// optionArgs repeats the oracle-shaping flags for reproduce commands.
func (f *Flags) optionArgs() string {
	var s string
	if f.Features != "" && f.Features != "all" {
		s += " --features " + shquote.Quote(f.Features)
	}
	if f.MetaTools != "" {
		s += " --meta-tools " + shquote.Quote(f.MetaTools)
	}
	if f.NoGrouping {
		s += " --no-grouping"
	}
	if f.Contract != "" {
		s += " --contract " + shquote.Quote(f.Contract)
	}
	if f.Documented != "" {
		s += " --documented " + shquote.Quote(f.Documented)
	}
	if f.ByDesign != "" {
		s += " --by-design " + shquote.Quote(f.ByDesign)
	}
	if f.Robustness {
		s += " --robustness"
	}
	return s
}
