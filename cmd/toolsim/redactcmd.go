package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/redact"
)

func (c *cli) redactCmd(args []string) int {
	fs := flag.NewFlagSet("redact", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var in inputFlags
	out := ""
	fs.StringVar(&in.from, "from", "", "source format (default: detect from content): "+strings.Join(formats.Names(), ", "))
	fs.BoolVar(&in.strict, "strict", false, strictUsage)
	fs.StringVar(&out, "o", "", "write the redacted trace to this file instead of stdout")
	fs.BoolVar(&in.all, "all", false, allUsage)
	ignore := fs.String("ignore", redact.IgnoreFile, "with --check: a file of `GLOB RULE...` lines (# comments) naming what is known and accepted: the files GLOB matches may hold what those rules (* for all) find")
	check := fs.Bool("check", false, "write nothing: name each file, line and rule that redaction would replace (never the secret) and exit 1 if any; takes files and directories (a pre-commit hook, a CI gate)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim redact [--from FORMAT] [--strict] [-o OUT] FILE\n       toolsim redact --check FILE|DIR...\n\nReads a trace in any supported format (- reads stdin) and writes it as a\ncanonical trace with secrets replaced by stable placeholders: API keys and\ntokens (OpenAI, Anthropic, Google, GitHub, AWS, Slack), JWTs, bearer tokens,\ncredentials, private keys, e-mail addresses and home-directory paths. The\nsame secret gets the same placeholder throughout the trace, so pairing and\ngrouping are unchanged. What was replaced is counted on stderr. The rules are\ngitleaks' default set (pinned, redact/gitleaks.toml) and toolsim's own.\nWith --check, nothing is written: each line of each file (a directory: every\nfile under it) that holds something redaction would replace is named with its\nrule, never the secret.\nExit status: 0 written (--check: nothing found), 1 the input could not be\nread or imported (--check: something found), 2 usage or a file that cannot\nbe opened.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	files := fs.Args()
	if *check {
		return c.redactCheck(files, *ignore)
	}
	if len(files) != 1 {
		fmt.Fprintln(c.stderr, "toolsim redact: want exactly one FILE (or - for stdin)")
		return exitUsage
	}
	h, evs, display, err := c.readTrace(files[0], in)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim redact: %v\n", err)
		return inputStatus(err)
	}
	r := redact.Trace(h, evs)
	var buf bytes.Buffer
	if err := event.WriteAll(&buf, h, evs); err != nil {
		fmt.Fprintf(c.stderr, "toolsim redact: write: %v\n", err)
		return exitFail
	}
	if out == "" {
		c.stdout.Write(buf.Bytes())
	} else if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintf(c.stderr, "toolsim redact: %v\n", err)
		return exitFail
	}
	fmt.Fprintf(c.stderr, "%s: %s\n", display, redactSummary(r.Found))
	return exitOK
}

// readTrace reads a whole trace in any format with its header (the
// importer's for other formats; the current version's for a canonical
// trace without one). Problems of an import are printed; a trace with no
// events is an error, as for every command.
func (c *cli) readTrace(name string, in inputFlags) (*event.Header, []event.Event, string, error) {
	src, err := c.openTrace(name, in)
	if err != nil {
		return nil, nil, "", err
	}
	defer src.close()
	c.reportProblems(src.display, src.Problems)
	res, err := src.Result()
	if err != nil {
		return nil, nil, src.display, err
	}
	return &res.Header, res.Events, src.display, nil
}

// redactSummary words what a redactor replaced (its Found): "redacted 3
// secrets (email 1, openai-key 2)", or "nothing to redact".
func redactSummary(found map[string]int) string {
	total := 0
	var kinds []string
	for k, n := range found {
		total += n
		kinds = append(kinds, fmt.Sprintf("%s %d", k, n))
	}
	if total == 0 {
		return "nothing to redact"
	}
	sort.Strings(kinds)
	return fmt.Sprintf("redacted %d secrets (%s)", total, strings.Join(kinds, ", "))
}
