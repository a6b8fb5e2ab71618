package agent

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// Codex CLI (@openai/codex), over the OpenAI Responses API. The model
// calls an MCP tool by its bare name with "namespace": "mcp__SERVER" on
// the function call item (without it Codex logs "unsupported call").
var codex = &Profile{
	Name: "codex", Package: "@openai/codex", Version: "0.169.0", Bin: "codex",
	Dialect: modelapi.Responses,
	Setup:   codexSetup,
	Call: func(server, tool string) (string, string) {
		return tool, "mcp__" + server
	},
	Ready:      func(s term.Snapshot) bool { return codexPrompt.MatchString(s.String()) },
	Busy:       func(s term.Snapshot) bool { return strings.Contains(s.String(), "esc to interrupt") },
	Read:       codexRows,
	Cancel:     []string{term.Esc},
	NewSession: "/new",
	Features:   []string{"tools", "cancel", "progress"},
	Contract:   []string{"executor"},
	Why: "Codex CLI is driven at its real boundaries: toolsim's OpenAI Responses API, MCP tools over streamable HTTP, " +
		"and its terminal. Its upstream is OpenAI's API (unique call ids) and MCP (one result per JSON-RPC call); it asks " +
		"the model again only once every call of a step ended: the executor preset. Not nothing-late: a tool that " +
		"ignores a cancel still returns. Features: tool calls, cancel (Esc) and MCP progress; the screen reader reads " +
		"tool rows only (tool-rows). Codex asks no permission before an MCP tool.",
}

func init() { register(codex) }

var (
	codexPrompt = regexp.MustCompile(`(?m)^› `)
	codexCall   = regexp.MustCompile(`^(•|◦|✔|✗|⠋|\S) (Calling|Called|Call failed|Cancelled|Interrupted)?\s*(\S+)\.(\S+)\(\{"call":"([^"]*)"\}\)`)
)

// codexRows reads Codex's MCP call rows: "• Calling toolsim.grep({…})"
// while it runs, "• Called …" once it returned; a failed result shows
// its error under the row.
func codexRows(s term.Snapshot) []browser.Row {
	var rows []browser.Row
	for i, line := range s.Lines {
		m := codexCall.FindStringSubmatch(line)
		if m == nil || m[3] != serverName {
			continue
		}
		rows = append(rows, browser.Row{Kind: "tool", ID: m[5], Name: m[4], Status: codexStatus(m[2], s.Lines[i+1:])})
	}
	return rows
}

// codexStatus reads a row's verb and the lines under it.
func codexStatus(verb string, under []string) string {
	switch verb {
	case "Calling":
		return "running"
	case "Call failed":
		return "failed"
	case "Cancelled", "Interrupted":
		return "interrupted"
	}
	if len(under) > 0 && strings.Contains(under[0], "Error") {
		return "failed"
	}
	return "ok"
}

// codexSetup writes $CODEX_HOME/config.toml: the fake provider with no
// retries, the MCP server, the workspace trusted, no update check.
func codexSetup(env Env) (Launch, error) {
	cfg := fmt.Sprintf(`model_provider = "toolsim"
model = "toolsim-model"
check_for_update_on_startup = false

[model_providers.toolsim]
name = "toolsim"
base_url = "%s/v1"
env_key = "TOOLSIM_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[mcp_servers.%s]
url = "%s"
tool_timeout_sec = 600

[projects.%q]
trust_level = "trusted"
`, env.ModelURL, env.Server, env.MCPURL, env.Work)
	if err := os.WriteFile(filepath.Join(env.Home, "config.toml"), []byte(cfg), 0o644); err != nil {
		return Launch{}, err
	}
	return Launch{
		Args: []string{"--no-daemon"},
		Env:  []string{"CODEX_HOME=" + env.Home, "TOOLSIM_API_KEY=" + env.Key},
	}, nil
}
