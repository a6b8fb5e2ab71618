package agent

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// opencode (opencode-ai), over OpenAI Chat Completions through the AI
// SDK's openai-compatible provider. The model calls an MCP tool T of
// server S as S_T.
//
// Why these features and this contract: opencode is driven at its real
// boundaries: toolsim's Chat Completions API, MCP tools over streamable
// HTTP, and its terminal. Its upstream is an OpenAI-compatible provider,
// which may repeat and reuse call ids (vercel/ai#17347; OpenRouter's
// "functions.add:0"), so neither unique-ids nor fresh-ids, and MCP (one
// result per JSON-RPC call); it asks the model again only once every call
// of a step ended. Not nothing-late: a tool that ignores a cancel still
// returns. Features: tool calls, cancel (Esc Esc) and MCP progress; the
// screen reader reads tool rows only (tool-rows), and cannot tell a
// running call from a returned one (opencodeRows). opencode asks no
// permission before an MCP tool.
var opencode = &Profile{
	Name: "opencode", Package: "opencode-ai", Version: "1.18.33", Bin: "opencode",
	Dialect: modelapi.Chat,
	Setup:   opencodeSetup,
	Call: func(server, tool string) (string, string) {
		return server + "_" + tool, ""
	},
	Ready:      opencodeReady,
	Busy:       opencodeBusy,
	Read:       opencodeRows,
	Cancel:     []string{term.Esc, term.Esc},
	NewSession: "/new",
	Quit:       "/exit",
	Resume:     []string{"--continue"},
	Features:   []string{"tools", "cancel", "progress"},
	Contract:   []string{"known-ids", "calls-first", "one-result", "approval-first", "answers-asked", "steps-wait", "response-first", "results-before-end"},
	// Sessions are rows of a SQLite database: opencode's own export.
	Log: SessionLog{Format: "opencode-export", Export: opencodeExport},
}

func init() { register(opencode) }

var opencodeCall = regexp.MustCompile(`⚙\s+` + serverName + `_(\S+) \[call=([^\],]*)`)

// opencodeReady reports whether opencode waits for a prompt: its footer
// shows its commands key, and no turn runs.
func opencodeReady(s term.Snapshot) bool {
	return s.Contains("ctrl+p commands") && !opencodeBusy(s)
}

// opencodeBusy reports whether a turn runs: the footer offers "esc
// interrupt", or "esc again to interrupt" after one Esc.
func opencodeBusy(s term.Snapshot) bool {
	return s.Contains("esc interrupt") || s.Contains("esc again to interrupt")
}

// opencodeRows reads opencode's MCP call rows, "⚙ toolsim_grep
// [call=call_1]": red once the call failed or was aborted, grey
// otherwise, running or returned alike (its generic tool renderer marks
// every call complete), so a grey row's state is not told (Status "").
// A red row of a message whose footer says "interrupted" ("▣ Build ·
// toolsim-model · interrupted") reads as interrupted, as a user reads
// it: the footer tells why the calls above it are red.
func opencodeRows(s term.Snapshot, _ []Asked) []browser.Row {
	var rows []browser.Row
	lines, styled := plain(s.Lines), styledLines(s)
	from := 0 // the first row of the message not yet closed by a footer
	for i, line := range lines {
		if strings.Contains(line, "▣") {
			if strings.HasSuffix(strings.TrimSpace(line), "· interrupted") {
				for j := from; j < len(rows); j++ {
					if rows[j].Status == "failed" {
						rows[j].Status = "interrupted"
					}
				}
			}
			from = len(rows)
			continue
		}
		m := opencodeCall.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		status := ""
		if c, ok := colourOf(styled[i], "⚙"); ok && c.red() {
			status = "failed"
		}
		rows = append(rows, browser.Row{Kind: "tool", ID: m[2], Name: m[1], Status: status})
	}
	return rows
}

// opencodeSetup writes opencode.json into the workspace (the fake
// provider, its one model with tool calls, the MCP server) and keeps
// every XDG directory under env.Home, so no state is shared.
func opencodeSetup(env Env) (Launch, error) {
	cfg := map[string]any{
		"$schema":    "https://opencode.ai/config.json",
		"model":      "toolsim/toolsim-model",
		"autoshare":  false,
		"autoupdate": false,
		"provider": map[string]any{"toolsim": map[string]any{
			"npm":     "@ai-sdk/openai-compatible",
			"name":    "toolsim",
			"options": map[string]any{"baseURL": env.ModelURL + "/v1", "apiKey": env.Key},
			"models":  map[string]any{"toolsim-model": map[string]any{"name": "toolsim-model", "tool_call": true}},
		}},
		"mcp": map[string]any{env.Server: map[string]any{"type": "remote", "url": env.MCPURL, "enabled": true}},
	}
	if err := writeJSON(filepath.Join(env.Work, "opencode.json"), cfg); err != nil {
		return Launch{}, err
	}
	var xdg []string
	for _, d := range []string{"CONFIG", "DATA", "STATE", "CACHE"} {
		dir := filepath.Join(env.Home, strings.ToLower(d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return Launch{}, err
		}
		xdg = append(xdg, "XDG_"+d+"_HOME="+dir)
	}
	return Launch{Env: append(xdg, "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1")}, nil
}
