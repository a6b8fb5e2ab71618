package agent

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// Gemini CLI (@google/gemini-cli), over the Gemini API's
// streamGenerateContent. The model calls an MCP tool T of server S as
// mcp_S_T; --approval-mode yolo runs it without asking. It shows each
// MCP call as a boxed row
//
//	│ ✓  grep (toolsim MCP Server) {"call":"call_1"}
//
// whose mark tells its state.
//
// Why these features and this contract: Gemini CLI is driven at its real
// boundaries: toolsim's Gemini API, MCP tools over streamable HTTP, and
// its terminal. Its upstream is the Gemini API, whose function call ids
// are optional but unique when sent ("The unique id of the function
// call", FunctionCall.id in the API reference; Gemini CLI makes up a
// unique one when none came), and MCP (one result per JSON-RPC call); it
// asks the model again only once every call of a step ended: the
// executor preset, as for the other apps. Not nothing-late: a tool that
// ignores a cancel still returns. Features: tool calls, cancel (Esc) and
// MCP progress; the screen reader reads tool rows only (tool-rows).
// --approval-mode yolo: no permission prompt.
var gemini = &Profile{
	Name: "gemini", Package: "@google/gemini-cli", Version: "0.61.0", Bin: "gemini",
	Dialect: modelapi.Gemini,
	Setup:   geminiSetup,
	Call: func(server, tool string) (string, string) {
		return "mcp_" + server + "_" + tool, ""
	},
	Ready:      geminiReady,
	Busy:       func(s term.Snapshot) bool { return strings.Contains(s.String(), "esc to cancel") },
	Read:       geminiRows,
	Cancel:     []string{term.Esc},
	NewSession: "/clear",
	Quit:       "/quit",
	Resume:     []string{"--resume", "latest"},
	// Gemini CLI 0.61.0 reads an Enter within 30 ms of a typed key as a
	// newline (FAST_RETURN_TIMEOUT in its bundle's keypress handling):
	// without a gap, every prompt waited for the nudge's second Enter,
	// 7.5 s later.
	EnterGap: 100 * time.Millisecond,
	Features: []string{"tools", "cancel", "progress"},
	Contract: []string{"executor"},
	// GEMINI_CLI_HOME=Home: .gemini/tmp/<project>/chats/session-*.json or
	// .jsonl (sub-agents' files sit one level deeper).
	Log: SessionLog{Format: "gemini-cli", Dir: ".gemini/tmp", Files: func(rel string) bool {
		dir, base := path.Split(rel)
		return strings.HasSuffix(dir, "/chats/") && strings.HasPrefix(base, "session-") &&
			(strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".jsonl"))
	}},
}

func init() { register(gemini) }

var (
	geminiPrompt = "Type your message"
	geminiCall   = regexp.MustCompile(`(\S)\s+(\S+) \(` + serverName + ` MCP Server\)(?: \{"call":"([^"]*)"\})?`)
)

// geminiReady reports whether Gemini CLI waits for a prompt: its empty
// input box is the last one on the screen, and it no longer initializes
// (before that it queues what is typed, and drops the queue on /clear).
func geminiReady(s term.Snapshot) bool {
	text := s.String()
	i := strings.LastIndex(text, geminiPrompt)
	return i >= 0 && !strings.Contains(text[i:], "esc to cancel") && !strings.Contains(text, "Initializing...")
}

// geminiRows reads Gemini CLI's MCP call rows. A row shows the call's
// arguments, and so its id; a resumed conversation shows some with the
// tool's description instead (a failed call's, after --resume): such a
// row is matched to its call as a user matches it, by tool name and
// order (nth), like Codex's.
func geminiRows(s term.Snapshot, asked []Asked) []browser.Row {
	var rows []browser.Row
	seen := map[string]int{}
	for _, line := range plain(s.Lines) {
		m := geminiCall.FindStringSubmatch(line)
		if m == nil || !strings.HasPrefix(strings.TrimLeft(line, "│ "), m[1]) {
			continue
		}
		seen[m[2]]++
		id := m[3]
		if id == "" {
			id = nth(asked, m[2], seen[m[2]])
		}
		rows = append(rows, browser.Row{Kind: "tool", ID: id, Name: m[2], Status: geminiStatus(m[1])})
	}
	return rows
}

// geminiStatus reads a row's mark.
func geminiStatus(mark string) string {
	switch mark {
	case "✓", "✔":
		return "ok"
	case "x", "✗":
		return "failed"
	case "-":
		return "interrupted"
	}
	return "running"
}

// geminiSetup writes $GEMINI_CLI_HOME/.gemini/settings.json: API-key
// auth, no folder trust prompt, no update check, no usage statistics, the
// MCP server, and ui.errorVerbosity "full": by default ("low") Gemini CLI
// leaves a failed call of the model's out of its tool rows altogether
// (docs/findings/gemini.md), so there would be no failed row to judge.
func geminiSetup(env Env) (Launch, error) {
	dir := filepath.Join(env.Home, ".gemini")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Launch{}, err
	}
	settings := map[string]any{
		"security":   map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}, "folderTrust": map[string]any{"enabled": false}},
		"general":    map[string]any{"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
		"privacy":    map[string]any{"usageStatisticsEnabled": false},
		"ui":         map[string]any{"errorVerbosity": "full"},
		"mcpServers": map[string]any{env.Server: map[string]any{"httpUrl": env.MCPURL, "timeout": 600000}},
	}
	if err := writeJSON(filepath.Join(dir, "settings.json"), settings); err != nil {
		return Launch{}, err
	}
	return Launch{
		Args: []string{"--approval-mode", "yolo"},
		Env: []string{"GOOGLE_GEMINI_BASE_URL=" + env.ModelURL, "GEMINI_API_KEY=" + env.Key,
			"GEMINI_CLI_HOME=" + env.Home, "GEMINI_CLI_NO_RELAUNCH=true"},
	}, nil
}
