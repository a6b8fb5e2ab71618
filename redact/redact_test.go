package redact_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsim/toolsim/redact"
)

// Fake credentials in each provider's shape (none is real).
const (
	openAIKey    = "sk-proj-Zx9kQ2mV7tR4nB8wL1cY6pH3sD5fG0jK"
	anthropicKey = "sk-ant-api03-Qw3eR5tY7uI9oP1aS3dF5gH7jK9lZ1xC3vB5nM7q-AbCdEf"
	googleKey    = "AIzaSyD4f8Gk2Lm9Qp1Rs7Tu3Vw5Xy0Za6Bc8De"
	githubToken  = "ghp_R4nd0mT0k3nF0rT3st1ngOnlyAbCdEf12345"
	githubPAT    = "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ"
	awsAccessKey = "AKIAZ7TESTKEY1234567"
	awsSecret    = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYTESTKEY123"
	slackToken   = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	jwt          = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0LXVzZXIifQ.c2lnbmF0dXJlLW5vdC1yZWFs"
	email        = "dana.fake@example.org"
	privateKey   = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----"
)

func TestString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"openai key", "export OPENAI_API_KEY=" + openAIKey, "export OPENAI_API_KEY=[redacted:openai-key:1]"},
		{"anthropic key is not an openai key", "key " + anthropicKey, "key [redacted:anthropic-key:1]"},
		{"google api key", "?key=" + googleKey + "&alt=sse", "?key=[redacted:google-api-key:1]&alt=sse"},
		{"github tokens", githubToken + " " + githubPAT, "[redacted:github-pat:1] [redacted:github-token:1]"},
		{"aws keys", "aws_access_key_id = " + awsAccessKey + "\naws_secret_access_key = " + awsSecret,
			"aws_access_key_id = [redacted:aws-access-key:1]\naws_secret_access_key = [redacted:aws-secret-key:1]"},
		{"slack token", "token " + slackToken, "token [redacted:slack-bot-token:1]"},
		{"jwt", "cookie=" + jwt, "cookie=[redacted:jwt:1]"},
		{"bearer header keeps its name", "Authorization: Bearer abc123def456ghi789", "Authorization: Bearer [redacted:bearer-token:1]"},
		{"bearer with a known key is named for the provider", "Authorization: Bearer " + openAIKey, "Authorization: Bearer [redacted:openai-key:1]"},
		{"credential assignment", `{"password": "hunter2hunter2hunter2"}`, `{"password": "[redacted:credential:1]"}`},
		{"private key block", "key:\n" + privateKey + "\ndone", "key:\n[redacted:private-key:1]\ndone"},
		{"email", "mail " + email + ".", "mail [redacted:email:1]."},
		{"home paths keep the rest", "/home/dana/src/app and /Users/dana/x and C:\\Users\\dana\\y", "[redacted:home:1]/src/app and [redacted:home:2]/x and [redacted:home:3]\\y"},
		{"same secret, same placeholder", email + " " + openAIKey + " " + email, "[redacted:email:1] [redacted:openai-key:1] [redacted:email:1]"},
		{"plain text is left alone", "go test ./... && git log -1 -- task-list.md", "go test ./... && git log -1 -- task-list.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redact.New().String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestJSONKeepsStructure(t *testing.T) {
	in := json.RawMessage(`{"email": "` + email + `", "n": 1.50, "list": ["/home/dana/a", {"k\"": "x"}], "` + email + `": true}`)
	got := string(redact.New().JSON(in))
	want := `{"email": "[redacted:email:1]", "n": 1.50, "list": ["[redacted:home:1]/a", {"k\"": "x"}], "[redacted:email:1]": true}`
	if got != want {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
	if !json.Valid([]byte(got)) {
		t.Errorf("not valid JSON: %s", got)
	}
}

// FuzzJSON: whatever a JSON document holds, its redaction is still valid
// JSON, and redacting it again changes nothing (placeholders are never
// matched).
func FuzzJSON(f *testing.F) {
	f.Add(`{"a": "` + email + `", "b": ["/home/x/y", 1, null]}`)
	f.Add(`"Bearer abcdefghijklmnop"`)
	f.Fuzz(func(t *testing.T, in string) {
		raw, err := json.Marshal(in)
		if err != nil {
			return
		}
		for _, doc := range []json.RawMessage{json.RawMessage(in), raw} {
			if !json.Valid(doc) {
				continue
			}
			r := redact.New()
			out := r.JSON(doc)
			if !json.Valid(out) {
				t.Fatalf("redacting %s gave invalid JSON %s", doc, out)
			}
			if again := r.JSON(out); string(again) != string(out) {
				t.Fatalf("redacting twice changed %s into %s", out, again)
			}
		}
	})
}
