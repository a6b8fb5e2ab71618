package redact_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/redact"
)

// containsSecret reports whether data still holds the secret part of s
// (for a bearer header, the token after "Bearer ").
func containsSecret(data []byte, s string) bool {
	s = strings.TrimPrefix(s, "Bearer ")
	return bytes.Contains(data, []byte(s))
}

// blob is one line holding a fake secret of every kind, with no quote,
// backslash or newline, so that it can be planted in any format's
// strings (JSON, JSON inside JSON, YAML single quotes, SSE data).
var blob = strings.Join([]string{
	"key", openAIKey, "ant", anthropicKey, "goog", googleKey, "gh", githubToken, githubPAT,
	"aws", awsAccessKey, "aws_secret_access_key=" + awsSecret, "slack", slackToken, "jwt", jwt,
	"mail", email, "cwd", "/home/dana/src/app", "mac", "/Users/dana/src",
	"auth Bearer abc123def456ghi789", "password=hunter2hunter2hunter2",
	"-----BEGIN RSA PRIVATE KEY----- MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu -----END RSA PRIVATE KEY-----",
	// gitleaks' families the hand-written rules lacked: payment, package
	// registries, AI providers, cloud, passwords in URLs, generic
	// assignments with entropy.
	"pay", stripeKey, "npm", npmToken, "hf", hfToken, "do", doToken,
	"clone https://deploy:" + urlPassword + "@git.example.com/app.git", "SERVICE_API_TOKEN=" + genericToken,
}, " ")

// The secrets of gitleaks' families planted in every format.
const (
	stripeKey    = "sk_live_4eC39HqLyjWDarjtT1zdp7dc9z"
	npmToken     = "npm_k3b9x2m7q1w8e4r6t5y0u2i9o3p7a1s5d8f2"
	hfToken      = "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"
	doToken      = "dop_v1_4f9a2c7e1b8d3f6a0c5e9b2d7f1a4c8e3b6d9f2a5c8e1b4d7f0a3c6e9b2d5f8a"
	urlPassword  = "Zr8vKq2LmX4w"
	genericToken = "Xk9mP2vQ7wL4nR8tJ3yB6cF1hD5gS0aZ"
)

// corpusSecrets are the values that must be gone after redaction.
var corpusSecrets = []string{openAIKey, anthropicKey, googleKey, githubToken, githubPAT, awsAccessKey, awsSecret, slackToken, jwt,
	email, "/home/dana", "/Users/dana", "abc123def456ghi789", "hunter2hunter2hunter2", "MIIBOgIBAAJBAKj34GkxFhD90vcNLYLInFEX6Ppy1tPf9Cnzj4p4WGeKLs1Pt8Qu",
	stripeKey, npmToken, hfToken, doToken, urlPassword, genericToken}

// corpus plants the blob in one scenario input per importer format, in
// place of a phrase the importer maps (a prompt, a command, a reply).
var corpus = []struct {
	format, scenario, file, phrase string
}{
	{"toolsim", "detect-spaced-json-bom", "dumps.jsonl", "Checking both packages."},
	{"acp", "import-acp-permission-rejected", "input.log", ""},
	{"claude-transcript", "import-claude-completion-order", "input.jsonl", ""},
	{"claude-stream-json", "import-claude-stream-denials", "input.jsonl", ""},
	{"codex-rollout", "import-codex-aborted-output", "input.jsonl", ""},
	{"codex-exec-json", "import-codex-exec-cut-off", "input.jsonl", "cargo build --release"},
	{"gemini-cli", "import-gemini-no-id", "input.json", "git log -1 --format=%h -- src/config.ts"},
	{"gemini-cli", "import-gemini-session-jsonl", "session-2026-02-03T16-05-b7e2a9c4.jsonl", "make lint"},
	{"anthropic-sse", "import-sse-cut-mid-arguments", "input.sse", ""},
	{"openai-chat-sse", "import-sse-same-tool-twice", "input.sse", "Running both checks."},
	{"openai-responses-sse", "import-sse-responses-failed", "input.sse", ""},
	{"vcr-cassette", "import-vcr-results-by-id", "input.yaml", "go vet ./..."},
	{"vcr-cassette", "import-vcr-gemini", "input.yaml", "go mod tidy -diff"},
	{"codex-tui-session-log", "import-codex-tui-session-log", "input.jsonl", "run the tests and fix the failing one"},
	{"opencode-export", "import-opencode-cancel", "input.json", "toolsim turn 1"},
}

// TestCorpusFullyRedacted imports each planted input, checks that the
// import carries every planted secret, redacts it, and checks that none
// is left anywhere in the written trace.
func TestCorpusFullyRedacted(t *testing.T) {
	formatsSeen := map[string]bool{}
	for _, c := range corpus {
		t.Run(c.format+"/"+c.scenario, func(t *testing.T) {
			data := scenarioFile(t, c.scenario, c.file)
			phrase := c.phrase
			if phrase == "" {
				phrase = firstPrompt(t, data)
			}
			if !bytes.Contains(data, []byte(phrase)) {
				t.Fatalf("%q not in %s", phrase, c.file)
			}
			data = bytes.ReplaceAll(data, []byte(phrase), []byte(blob))
			im, err := formats.Detect(data[:min(len(data), formats.HeadSize)])
			if err != nil || im.Name() != c.format {
				t.Fatalf("detected %v (%v), want %s", im, err, c.format)
			}
			res, err := im.Import(bytes.NewReader(data), importer.Options{Name: c.file})
			if err != nil {
				t.Fatal(err)
			}
			var plain bytes.Buffer
			if err := event.WriteAll(&plain, &res.Header, res.Events); err != nil {
				t.Fatal(err)
			}
			for _, s := range corpusSecrets {
				if !containsSecret(plain.Bytes(), s) {
					t.Fatalf("the import does not carry %q: the planting missed", s)
				}
			}
			redact.Trace(&res.Header, res.Events)
			var out bytes.Buffer
			if err := event.WriteAll(&out, &res.Header, res.Events); err != nil {
				t.Fatal(err)
			}
			for _, s := range corpusSecrets {
				if containsSecret(out.Bytes(), s) {
					t.Errorf("%q left after redaction", s)
				}
			}
			formatsSeen[c.format] = true
		})
	}
	for _, name := range formats.Names() {
		if !formatsSeen[name] {
			t.Errorf("format %s has no planted corpus entry", name)
		}
	}
}

// scenarioFile reads one file of a scenarios/*.txtar archive.
func scenarioFile(t *testing.T, scenario, file string) []byte {
	t.Helper()
	ar, err := txtar.ParseFile(filepath.Join("..", "scenarios", scenario+".txtar"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == file {
			return f.Data
		}
	}
	t.Fatalf("%s has no %s", scenario, file)
	return nil
}

// firstPrompt finds a phrase to replace in inputs whose corpus entry names
// none: the text of the first user event the input imports to.
func firstPrompt(t *testing.T, data []byte) string {
	t.Helper()
	im, err := formats.Detect(data[:min(len(data), formats.HeadSize)])
	if err != nil {
		t.Fatal(err)
	}
	res, err := im.Import(bytes.NewReader(data), importer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range res.Events {
		if ev.Kind == event.KindUser && ev.Text != "" && !strings.ContainsAny(ev.Text, "\"\\\n") {
			return ev.Text
		}
	}
	for _, ev := range res.Events {
		if ev.Kind == event.KindText && ev.Text != "" && !strings.ContainsAny(ev.Text, "\"\\\n") && bytes.Contains(data, []byte(ev.Text)) {
			return ev.Text
		}
	}
	t.Fatal("no user prompt or text to plant in")
	return ""
}
