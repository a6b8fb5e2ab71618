package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/toolsim/toolsim/internal/spell"
)

// parseFlags parses args with fs, accepting flags anywhere among the
// positional arguments ("check trace.jsonl --engine CMD"), as people type
// them; "--" ends the flags. Afterwards fs.Args() holds the positional
// arguments in order.
func parseFlags(fs *flag.FlagSet, args []string) error {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return fs.Parse(append([]string{"--"}, pos...))
}

// parseFlags parses a subcommand's flags; asked for help (-h, --help),
// it writes the usage to stdout, as toolsim --help does, since the user
// asked for it. A bad flag is one line on stderr, with the flag it was
// likely meant to be, and a pointer to --help: not the whole usage,
// which would bury the line that matters.
func (c *cli) parseFlags(fs *flag.FlagSet, args []string) error {
	if asksHelp(args) {
		fs.SetOutput(c.stdout)
		return parseFlags(fs, args)
	}
	out, usage := fs.Output(), fs.Usage
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	err := parseFlags(fs, args)
	fs.SetOutput(out)
	fs.Usage = usage
	if err != nil {
		fmt.Fprintf(out, "toolsim %s: %s\nRun 'toolsim %s --help' for its flags.\n", fs.Name(), flagError(fs, err), fs.Name())
	}
	return err
}

// asksHelp reports whether args ask for the usage before any "--".
func asksHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--h" || a == "-help" || a == "--help" {
			return true
		}
	}
	return false
}

// flagError rewords the flag package's error the way users type flags,
// naming the closest flag for one it does not know.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	const unknown = "flag provided but not defined: -"
	if name, ok := strings.CutPrefix(msg, unknown); ok {
		msg = "unknown flag " + dashed(name)
		if near := nearestFlag(fs, name); near != "" {
			msg += "; did you mean " + dashed(near) + "?"
		}
		return msg
	}
	for _, form := range []string{"flag -", "argument: -"} { // invalid value, needs an argument
		msg = strings.Replace(msg, form, form+"-", 1)
	}
	return msg
}

// dashed writes a flag name as users type it.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// nearestFlag is fs's flag that name most likely misspells
// (spell.Nearest), else one that name begins or is begun by (3 letters
// or more); "" when none is.
func nearestFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	if near, ok := spell.Nearest(name, names); ok {
		return near
	}
	for _, n := range names {
		if len(name) >= 3 && (strings.HasPrefix(n, name) || strings.HasPrefix(name, n)) {
			return n
		}
	}
	return ""
}

// defaultText spells a flag's default as a user types it: bare, quoted
// only when it holds a space or a quote.
func defaultText(v string) string {
	if strings.ContainsAny(v, " \t'\"") {
		return fmt.Sprintf("%q", v)
	}
	return v
}

// printFlags lists fs's flags the way the usage lines write them: --name,
// or -o for a one-letter flag.
func printFlags(fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		name, usage := flag.UnquoteUsage(f)
		dash := "--"
		if len(f.Name) == 1 {
			dash = "-" // a one-letter flag is typed -o
		}
		line := "  " + dash + f.Name
		if name != "" {
			line += " " + name
		}
		line += "\n    \t" + strings.ReplaceAll(usage, "\n", "\n    \t")
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
			line += " (default " + defaultText(f.DefValue) + ")"
		}
		fmt.Fprintln(fs.Output(), line)
	})
}
