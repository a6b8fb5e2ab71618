package agent

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// Profile is one agent app: how to install, configure and start it, the
// keys it answers to, and its screen reader. Adding an app means adding
// a Profile (docs/agents.md); the engine is the same for all.
type Profile struct {
	// Name is the --agent name and the examples/<Name> directory that
	// pins the app's npm package.
	Name string
	// Package and Version are the pinned npm package (examples/<Name>/package.json).
	Package, Version string
	// Bin is the app's command in examples/<Name>/node_modules/.bin.
	Bin string
	// Dialect is the model API the app speaks.
	Dialect modelapi.Dialect
	// Setup writes the app's configuration under env.Home and env.Work
	// and returns how to start it.
	Setup func(env Env) (Launch, error)
	// Call is the model's call of MCP tool tool on server server, with
	// the call's id: the name the app offers it under, and for Codex the
	// Responses namespace.
	Call func(server, tool string) (name, namespace string)
	// Ready reports whether the screen waits for a prompt: the app
	// started, or a turn ended.
	Ready func(s term.Snapshot) bool
	// Busy reports whether the screen shows a turn in progress (a
	// spinner, "esc to interrupt"); the engine waits for it to go after a
	// turn ends or a cancel.
	Busy func(s term.Snapshot) bool
	// Read is the screen reader: the tool rows the screen shows, in
	// screen order, each with its call id, tool name and status, as a
	// user reads them. An app that shows the call's arguments shows its
	// id (the call argument); one that hides them (Codex) is read as a
	// user reads it, by tool name and order: the k-th row of a tool is
	// the k-th call of it that the model sent (asked, in order), and a
	// row beyond them is a row of a call never started. A row whose
	// state the screen does not tell (opencode draws a running and a
	// returned MCP call alike) has Status "": the engine gives it the
	// state SPEC expects, so only what a user can see is judged.
	Read func(s term.Snapshot, asked []Asked) []browser.Row
	// Cancel is the app's cancel key(s), sent one at a time.
	Cancel []string
	// NewSession is what the user types for a fresh conversation
	// ("/clear", "/new"), Enter excluded.
	NewSession string
	// Quit is what the user types to quit the app ("/quit", "/exit"),
	// Enter excluded; Resume is the arguments, after Launch's, that start
	// it again on its last conversation ("resume --last", "--continue").
	// The resume oracle uses both (docs/agents.md, After resume).
	Quit   string
	Resume []string
	// EnterGap, when set, is how long the screen must stay unchanged
	// after a typed prompt shows before Enter is pressed: an app that
	// reads a fast Enter as part of a paste takes it as a newline.
	EnterGap time.Duration
	// Features are the parts of SPEC §2 the engine drives (docs/agents.md).
	Features []string
	// Contract is what the app's upstream (its model API and MCP) never
	// sends (docs/simulator.md, Contracts).
	Contract []string
	// Log is where the app keeps its own record of a conversation, and
	// the toolsim format that imports it (App.SessionLog).
	Log SessionLog
}

// SessionLog is where an app keeps its own record of its conversations.
// Either Files matches the newest file under Home's Dir (a path relative
// to Dir, forward slashes), or Export prints the newest conversation
// (opencode: its sessions are rows of a database).
type SessionLog struct {
	Format string // toolsim's import format (formats.Names)
	Dir    string // under Env.Home
	Files  func(rel string) bool
	Export func(a *App) (name string, data []byte, err error)
}

// Asked is a call the model sent the app in this conversation.
type Asked struct{ ID, Name string }

// Env is where one app process lives and what it talks to.
type Env struct {
	// Home is the app's own configuration directory (CODEX_HOME,
	// CLAUDE_CONFIG_DIR, …), empty at Setup.
	Home string
	// Work is the workspace the app starts in, empty at Setup.
	Work string
	// ModelURL is the model API's base URL (http://127.0.0.1:PORT).
	ModelURL string
	// MCPURL is the MCP server's URL (http://127.0.0.1:PORT/mcp).
	MCPURL string
	// Server is the MCP server's name in the app's configuration.
	Server string
	// Key is the dummy API key the app sends.
	Key string
	// Tools are the MCP tools' names.
	Tools []string
}

// Launch is how to start the app: arguments after its binary, and the
// environment on top of a minimal one (PATH, HOME, TERM, LANG).
type Launch struct {
	Args []string
	Env  []string
}

// profiles are the apps toolsim knows, by name.
var profiles = map[string]*Profile{}

// register adds a profile at init.
func register(p *Profile) { profiles[p.Name] = p }

// Lookup returns the profile named name, or an error listing the known
// ones.
func Lookup(name string) (*Profile, error) {
	if p, ok := profiles[name]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("unknown agent %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Names lists the known agents, sorted.
func Names() []string {
	var out []string
	for n := range profiles {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// plain returns the lines with no-break spaces (which apps draw around
// their marks) as spaces, for the readers' patterns.
func plain(lines []string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.ReplaceAll(l, "\u00a0", " ")
	}
	return out
}
