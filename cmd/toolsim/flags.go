package main

import (
	"flag"
	"fmt"
	"strings"
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
// asked for it (usage errors still go to stderr).
func (c *cli) parseFlags(fs *flag.FlagSet, args []string) error {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "--h" || a == "-help" || a == "--help" {
			fs.SetOutput(c.stdout)
			break
		}
	}
	return parseFlags(fs, args)
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
