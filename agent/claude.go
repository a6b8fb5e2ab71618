package agent

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// Claude Code (@anthropic-ai/claude-code), over the Anthropic Messages
// API. It shows each MCP call as
//
//	● toolsim - grep (MCP)(call: "call_1")
//	  ⎿  Running…
//
// with the line under it "Running…", the result's first line, "Error: …"
// or "Interrupted · What should Claude do instead?". --verbose shows each
// call of a parallel batch on its own row (without it Claude Code folds
// them into "Calling toolsim 3 times…").
//
// Why these features and this contract: Claude Code is driven at its real
// boundaries: toolsim's Anthropic Messages API, MCP tools over streamable
// HTTP, and its terminal. Its upstream is Anthropic's API (unique tool_use
// ids) and MCP (one result per JSON-RPC call); it asks the model again
// only once every call of a step ended: the executor preset. Not nothing-
// late: a tool that ignores a cancel still returns. Features: tool calls,
// cancel (Esc) and MCP progress; the screen reader reads tool rows only
// (tool-rows), and MCP tools are allowed up front (--allowedTools), so no
// permission prompt.
var claude = &Profile{
	Name: "claude", Package: "@anthropic-ai/claude-code", Version: "2.1.328", Bin: "claude",
	Dialect: modelapi.Anthropic,
	Setup:   claudeSetup,
	Call: func(server, tool string) (string, string) {
		return "mcp__" + server + "__" + tool, ""
	},
	Ready: func(s term.Snapshot) bool { return s.Contains("? for shortcuts") },
	Busy: func(s term.Snapshot) bool {
		return strings.Contains(s.String(), "esc to interrupt")
	},
	Read:       claudeRows,
	Cancel:     []string{term.Esc},
	NewSession: "/clear",
	Quit:       "/exit",
	Resume:     []string{"--continue"},
	Features:   []string{"tools", "cancel", "progress"},
	Contract:   []string{"executor"},
	// CLAUDE_CONFIG_DIR=Home: projects/<workspace path>/<session id>.jsonl
	// (sub-agents' files sit one level deeper).
	Log: SessionLog{Format: "claude-transcript", Dir: "projects", Files: func(rel string) bool {
		return strings.Count(rel, "/") == 1 && strings.HasSuffix(rel, ".jsonl")
	}},
}

func init() { register(claude) }

var (
	claudeCall  = regexp.MustCompile(`^(?:●| ) (\S+) - (\S+) \(MCP\)\(call: "([^"]*)"\)`)
	claudeUnder = regexp.MustCompile(`^\s+⎿\s+(.*)$`)
)

// claudeRows reads Claude Code's MCP call rows. The bullet's colour
// tells a finished call: green returned, red failed (grey, or blinking
// off, while it runs); the line under it tells an interrupted one, and
// shows progress while it runs.
func claudeRows(s term.Snapshot, _ []Asked) []browser.Row {
	var rows []browser.Row
	lines, styled := plain(s.Lines), styledLines(s)
	for i, line := range lines {
		m := claudeCall.FindStringSubmatch(line)
		if m == nil || m[1] != serverName {
			continue
		}
		under := ""
		if i+1 < len(lines) {
			if u := claudeUnder.FindStringSubmatch(lines[i+1]); u != nil {
				under = u[1]
			}
		}
		c, coloured := colourOf(styled[i], "●")
		rows = append(rows, browser.Row{Kind: "tool", ID: m[3], Name: m[2], Status: claudeStatus(under, c, coloured)})
	}
	return rows
}

// claudeStatus reads a call's bullet colour and the line under it.
func claudeStatus(under string, c rgb, coloured bool) string {
	switch {
	case strings.HasPrefix(under, "Interrupted"):
		return "interrupted"
	case coloured && c.red():
		return "failed"
	case coloured && c.green():
		return "ok"
	}
	return "running"
}

// claudeSetup pre-seeds the configuration a first start would ask for:
// onboarding done, the dummy key approved, the workspace trusted.
func claudeSetup(env Env) (Launch, error) {
	cfg := map[string]any{
		"hasCompletedOnboarding": true,
		"customApiKeyResponses":  map[string]any{"approved": []string{env.Key[len(env.Key)-20:]}, "rejected": []string{}},
		"projects":               map[string]any{env.Work: map[string]any{"hasTrustDialogAccepted": true}},
	}
	if err := writeJSON(filepath.Join(env.Home, ".claude.json"), cfg); err != nil {
		return Launch{}, err
	}
	mcp := filepath.Join(env.Home, "mcp.json")
	err := writeJSON(mcp, map[string]any{"mcpServers": map[string]any{env.Server: map[string]any{"type": "http", "url": env.MCPURL}}})
	if err != nil {
		return Launch{}, err
	}
	return Launch{
		Args: []string{"--mcp-config", mcp, "--strict-mcp-config", "--permission-mode", "default", "--verbose",
			"--allowedTools", "mcp__" + env.Server},
		Env: []string{"ANTHROPIC_BASE_URL=" + env.ModelURL, "ANTHROPIC_API_KEY=" + env.Key,
			"CLAUDE_CONFIG_DIR=" + env.Home, "ENABLE_TOOL_SEARCH=false", "DISABLE_AUTOUPDATER=1",
			"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1"},
	}, nil
}

// writeJSON writes v to path, indented.
func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}
