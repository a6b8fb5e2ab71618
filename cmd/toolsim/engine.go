package main

import (
	"bytes"
	"flag"
	"fmt"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/rebuild"
)

func (c *cli) engineCmd(args []string) int {
	fs := flag.NewFlagSet("engine", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim engine\n\nServes the reference engine over the toolsim-engine/1 protocol on stdin and\nstdout (docs/protocol.md): the engine that --engine 'toolsim engine' drives,\nand a working example of the protocol. It exits when its input ends.")
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(c.stderr, "toolsim engine: takes no arguments")
		return exitUsage
	}
	if err := engineproto.Serve(c.stdin, c.stdout, referenceServe); err != nil {
		fmt.Fprintf(c.stderr, "toolsim engine: %v\n", err)
		return exitFail
	}
	return exitOK
}

// referenceServe serves the reference engine and reconstruction.
var referenceServe = engineproto.ServeOptions{
	New: func(meta []string) engineproto.Engine { return engine.New(engine.Options{MetaTools: meta}) },
	Reconstruct: func(log []byte, meta []string) (engineproto.Engine, error) {
		res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{Engine: engine.Options{MetaTools: meta}})
		if err != nil {
			return nil, err
		}
		return res.Engine, nil
	},
}
