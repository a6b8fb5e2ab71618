package main

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/toolsim/toolsim/redact"
)

// redactCheck runs redact.Check on files and directories with the ignore
// file at ignorePath. It prints FILE:LINE: RULE for each finding (never
// the secret) and returns 1 when there is one.
func (c *cli) redactCheck(args []string, ignorePath string) int {
	if len(args) == 0 {
		fmt.Fprintln(c.stderr, "toolsim redact --check: want at least one FILE or DIR")
		return exitUsage
	}
	ign, err := redact.ReadIgnore(ignorePath)
	if _, ok := errors.AsType[*fs.PathError](err); ok {
		err = fmt.Errorf("--ignore: %w", err)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim redact --check: %v\n", err)
		return exitUsage
	}
	hits := 0
	files, err := redact.Check(args, ign, func(f redact.Finding) {
		hits++
		fmt.Fprintln(c.stdout, f)
	})
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim redact --check: %v\n", err)
		return exitUsage
	}
	if hits > 0 {
		fmt.Fprintf(c.stdout, "%d lines hold something redaction would replace (toolsim redact FILE -o OUT rewrites a trace)\n", hits)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "ok: nothing to redact in %d files\n", files)
	return exitOK
}
