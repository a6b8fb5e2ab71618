package agent

import (
	"fmt"
	"os"
	"path"
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
//
// Why these features and this contract: Codex CLI is driven at its real
// boundaries: toolsim's OpenAI Responses API, MCP tools over streamable
// HTTP, and its terminal. Its upstream is OpenAI's API (unique call ids)
// and MCP (one result per JSON-RPC call); it asks the model again only
// once every call of a step ended: the executor preset. Not nothing-late:
// a tool that ignores a cancel still returns. Features: tool calls, cancel
// (Esc) and MCP progress; the screen reader reads tool rows only
// (tool-rows). The MCP tools are readOnlyHint, so Codex asks no
// permission before them.
var codex = &Profile{
	Name: "codex", Package: "@openai/codex", Version: "0.169.0", Bin: "codex",
	Dialect: modelapi.Responses,
	Setup:   codexSetup,
	Call: func(server, tool string) (string, string) {
		return tool, "mcp__" + server
	},
	Ready:      codexReady,
	Busy:       func(s term.Snapshot) bool { return strings.Contains(s.String(), "esc to interrupt") },
	Read:       codexRows,
	Cancel:     []string{term.Esc},
	NewSession: "/new",
	Quit:       "/quit",
	Resume:     []string{"resume", "--last"},
	Features:   []string{"tools", "cancel", "progress"},
	Contract:   []string{"executor"},
	// CODEX_HOME=Home: sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl.
	Log: SessionLog{Format: "codex-rollout", Dir: "sessions", Files: func(rel string) bool {
		base := path.Base(rel)
		return strings.HasPrefix(base, "rollout-") && strings.HasSuffix(base, ".jsonl")
	}},
}

func init() { register(codex) }

var (
	codexPrompt = regexp.MustCompile(`(?m)^› `)
	codexCall   = regexp.MustCompile(`^• (Calling|Called|Failed|Cancelled|Interrupted) (\S+)\.(\S+)`)
)

// codexReady reports whether Codex's input line ("› ") is empty: nothing
// after the mark, or its dim placeholder.
func codexReady(s term.Snapshot) bool {
	styled := styledLines(s)
	for i := len(s.Lines) - 1; i >= 0; i-- {
		if codexPrompt.MatchString(s.Lines[i]) || s.Lines[i] == "›" {
			return dimAfter(styled[i], "›")
		}
	}
	return false
}

// codexRows reads Codex's MCP call rows: "• Calling toolsim.grep" while
// it runs, "• Called toolsim.grep" once it returned, "• Failed …" with
// its error under it. Codex hides the arguments behind "+ Show details",
// so the rows are matched to the calls by tool name and order.
func codexRows(s term.Snapshot, asked []Asked) []browser.Row {
	var rows []browser.Row
	seen := map[string]int{}
	for _, line := range plain(s.Lines) {
		m := codexCall.FindStringSubmatch(line)
		if m == nil || m[2] != serverName {
			continue
		}
		name := m[3]
		seen[name]++
		rows = append(rows, browser.Row{Kind: "tool", ID: nth(asked, name, seen[name]), Name: name, Status: codexStatus(m[1])})
	}
	return rows
}

// nth is the id of the k-th call of tool name the model sent, or, when
// it sent fewer, a name for a row no call started ("grep#3").
func nth(asked []Asked, name string, k int) string {
	n := 0
	for _, a := range asked {
		if a.Name == name {
			if n++; n == k {
				return a.ID
			}
		}
	}
	return fmt.Sprintf("%s#%d", name, k)
}

// codexStatus reads a row's verb.
func codexStatus(verb string) string {
	switch verb {
	case "Calling":
		return "running"
	case "Failed":
		return "failed"
	case "Cancelled", "Interrupted":
		return "interrupted"
	}
	return "ok"
}

// codexSetup writes $CODEX_HOME/config.toml: the fake provider with no
// retries, the MCP server, the workspace trusted, no update check. The
// server says its tools may run in parallel (supports_parallel_tool_calls,
// openai/codex#17667: MCP calls are serial by default), as toolsim's are:
// a batch's calls run at once, as the trace has them.
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
supports_parallel_tool_calls = true

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
