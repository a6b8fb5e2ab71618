// Command toolsim-browser serves a chat UI's page, driven in headless
// Chromium, as a toolsim engine over toolsim-engine/1 (docs/protocol.md):
//
//	toolsim fuzz --engine 'toolsim-browser --page examples/assistant-ui/dist' --workers 2
//
// Each process runs one Chromium with the page loaded; toolsim keeps one
// process per worker and resets the page between scenarios. The page
// contract is package browser's. The page directory's contract.json, when
// there is one, declares what the engine supports and guarantees
// (features, contract, documented; docs/simulator.md, Contracts). The
// engine declares the screen capability, so toolsim adds its screen
// oracles, and reconstruct, answered by the page rebuilt from its stored
// messages.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/engineproto"
)

// declared is a page's contract.json.
type declared = contract.Declaration

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, in io.Reader, out, errw io.Writer) int {
	fs := flag.NewFlagSet("toolsim-browser", flag.ContinueOnError)
	fs.SetOutput(errw)
	page := fs.String("page", "", "the page's directory (index.html, and contract.json if any)")
	bug := fs.String("bug", "", "load the page with ?bug=NAME (a page's planted bugs)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *page == "" || fs.NArg() > 0 {
		fmt.Fprintln(errw, "usage: toolsim-browser --page DIR [--bug NAME]")
		return 2
	}
	d, err := readDeclared(*page)
	if err != nil {
		fmt.Fprintf(errw, "toolsim-browser: %v\n", err)
		return 2
	}
	b, err := browser.Start(browser.Options{Page: *page, Query: query(*bug)})
	if err != nil {
		fmt.Fprintf(errw, "toolsim-browser: %v\n", err)
		return 2
	}
	defer b.Close()
	err = engineproto.Serve(in, out, engineproto.ServeOptions{
		New: func([]string) engineproto.Engine { return browser.NewEngine(b) },
		Reconstruct: func(log []byte, _ []string) (engineproto.Engine, error) {
			return browser.Reconstruct(b, log)
		},
		Fields: []string{}, Full: true, NoGrouping: true,
		Features: d.Features, Contract: d.Contract, Documented: d.Documented, ByDesign: d.ByDesign,
		Capabilities: []string{engineproto.CapScreen},
	})
	if err != nil {
		fmt.Fprintf(errw, "toolsim-browser: %v\n", err)
		return 1
	}
	return 0
}

// query is the page URL's query for a planted bug ("" for none).
func query(bug string) string {
	if bug == "" {
		return ""
	}
	return "bug=" + url.QueryEscape(bug)
}

// readDeclared reads DIR/contract.json; a page without one declares
// nothing (every feature, no contract).
func readDeclared(dir string) (declared, error) {
	var d declared
	path := filepath.Join(dir, "contract.json")
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return d, nil
	}
	if err != nil {
		return d, err
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return d, fmt.Errorf("%s: %w", path, err)
	}
	if _, err := d.Parse(); err != nil {
		return d, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
