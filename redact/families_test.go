package redact_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/redact"
)

// fake returns n characters of charset from a seeded source: a fake
// secret with a real one's shape and entropy.
func fake(rng *rand.Rand, charset string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteByte(charset[rng.IntN(len(charset))])
	}
	return b.String()
}

const (
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	lower = "abcdefghijklmnopqrstuvwxyz0123456789"
	hex   = "0123456789abcdef"
	upper = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
)

// planted is one secret in the text an agent's tool would print, and
// the rule expected to name it.
type planted struct {
	family, kind, secret, text string
}

// secretKinds plants a secret of each of 30+ kinds, across the families
// of gitleaks' rules that agent logs carry: the five the hand-written
// rules missed (Stripe, Google API key, npm, Hugging Face, a GCP service
// account's private_key_id) among them.
func secretKinds() []planted {
	rng := rand.New(rand.NewPCG(29, 1))
	f := func(cs string, n int) string { return fake(rng, cs, n) }
	uuid := f(hex, 8) + "-" + f(hex, 4) + "-" + f(hex, 4) + "-" + f(hex, 4) + "-" + f(hex, 12)
	oai := "sk-proj-" + f(alnum, 74) + "T3BlbkFJ" + f(alnum, 74)
	var out []planted
	add := func(family, kind, secret, text string) {
		out = append(out, planted{family, kind, secret, strings.ReplaceAll(text, "$S", secret)})
	}
	add("payment", "stripe-access-token", "sk_live_"+f(alnum, 24), "STRIPE_KEY=$S\n")
	add("cloud", "gcp-api-key", "AIza"+f(alnum, 35), "maps: $S\n")
	add("registry", "npm-access-token", "npm_"+f(lower, 36), "//registry.npmjs.org/:_authToken=$S\n")
	add("ai", "huggingface-access-token", "hf_"+f("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", 34), "HF_TOKEN $S\n")
	add("cloud", "gcp-private-key-id", f(hex, 40), `{"type": "service_account", "private_key_id": "$S"}`)
	add("cloud", "aws-access-token", "AKIA"+f(upper, 16), "aws_access_key_id = $S\n")
	add("cloud", "digitalocean-pat", "dop_v1_"+f(hex, 64), "token: $S\n")
	add("cloud", "heroku-api-key", uuid, "HEROKU_API_KEY=$S\n")
	add("cloud", "hashicorp-tf-api-token", f(lower, 14)+".atlasv1."+f(lower, 64), "token = \"$S\"\n")
	add("cloud", "azure-ad-client-secret", f(alnum, 3)+"8Q~"+f(alnum, 32), "client_secret: $S\n")
	add("vcs", "github-pat", "ghp_"+f(alnum, 36), "GH_TOKEN=$S\n")
	add("vcs", "github-oauth", "gho_"+f(alnum, 36), "oauth $S\n")
	add("vcs", "github-app-token", "ghs_"+f(alnum, 36), "installation $S\n")
	add("vcs", "gitlab-pat", "glpat-"+f(alnum, 20), "PRIVATE-TOKEN: $S\n")
	add("registry", "pypi-upload-token", "pypi-AgEIcHlwaS5vcmc"+f(alnum, 60), "password = $S\n")
	add("registry", "rubygems-api-token", "rubygems_"+f(hex, 48), ":rubygems_api_key: $S\n")
	add("payment", "shopify-access-token", "shpat_"+f(hex, 32), "X-Shopify-Access-Token: $S\n")
	add("payment", "square-access-token", "EAAA"+f(alnum, 60), "square $S\n")
	add("chat", "slack-bot-token", "xoxb-"+f("0123456789", 12)+"-"+f("0123456789", 12)+"-"+f(alnum, 24), "SLACK_BOT=$S\n")
	add("chat", "slack-webhook-url", "https://hooks.slack.com/services/"+f(alnum, 44), "webhook: $S\n")
	add("chat", "telegram-bot-api-token", f("0123456789", 10)+":A"+f(lower, 34), "TELEGRAM_BOT_TOKEN=$S\n")
	add("ai", "openai-api-key", oai, "OPENAI_API_KEY=$S\n")
	add("ai", "anthropic-api-key", "sk-ant-api03-"+f(alnum, 93)+"AA", "x-api-key: $S\n")
	add("private-key", "private-key", "-----BEGIN PRIVATE KEY-----\n"+f(alnum, 64)+"\n"+f(alnum, 64)+"\n-----END PRIVATE KEY-----", "$S\n")
	add("jwt", "jwt", "eyJ"+f(alnum, 20)+".eyJ"+f(alnum, 40)+"."+f(alnum, 43), "cookie session=$S\n")
	add("url", "url-credential", f(alnum, 16), "git clone https://deploy:$S@git.example.com/app.git\n")
	add("generic", "generic-api-key", f(alnum, 32), "SERVICE_API_TOKEN=$S\n")
	add("generic", "credential", "correcthorsebatterystaple", "db password: correcthorsebatterystaple\n")
	add("mail", "sendgrid-api-token", "SG."+f(alnum, 22)+"."+f(alnum, 43), "SENDGRID=$S\n")
	add("chat", "twilio-api-key", "SK"+f(hex, 32), "twilio $S\n")
	add("saas", "linear-api-key", "lin_api_"+f(lower, 40), "LINEAR=$S\n")
	add("saas", "postman-api-token", "PMAK-"+f(hex, 24)+"-"+f(hex, 34), "postman $S\n")
	add("saas", "sentry-user-token", "sntryu_"+f(hex, 64), "SENTRY_AUTH_TOKEN=$S\n")
	add("saas", "grafana-service-account-token", "glsa_"+f(alnum, 32)+"_"+f(hex, 8), "grafana $S\n")
	add("personal", "email", "dana.fake@example.org", "owner: $S\n")
	add("personal", "home", "/home/dana", "cwd /home/dana/src/app\n")
	return out
}

// TestEveryFamilyRedacted: a trace whose tool output carries 36 secrets of
// 36 kinds is fully redacted: no secret remains, each is replaced under
// the rule expected for it, and the summary counts every kind.
func TestEveryFamilyRedacted(t *testing.T) {
	kinds := secretKinds()
	if len(kinds) < 30 {
		t.Fatalf("only %d kinds planted, want 30 or more", len(kinds))
	}
	var out strings.Builder
	for _, p := range kinds {
		out.WriteString(p.text)
	}
	evs := []event.Event{
		{Seq: 1, Kind: event.KindToolStart, ID: "toolu_01", Name: "Bash", Args: []byte(`{"command":"cat .env"}`)},
		{Seq: 2, Kind: event.KindToolDone, ID: "toolu_01", OK: true, Output: out.String()},
	}
	r := redact.Trace(nil, evs)
	got := evs[1].Output
	for _, p := range kinds {
		t.Run(p.kind, func(t *testing.T) {
			if strings.Contains(got, p.secret) {
				t.Errorf("%s secret left in place:\n%s", p.family, got)
			}
			if r.Found[p.kind] == 0 {
				t.Errorf("no replacement named %s (found %v)", p.kind, r.Found)
			}
		})
	}
}

// lookAlikes are strings an agent log is full of that look random but are
// not secrets: tool call and message ids, git SHAs, UUIDs, digests,
// base64 file content, module checksums.
func lookAlikes() []string {
	rng := rand.New(rand.NewPCG(29, 2))
	f := func(cs string, n int) string { return fake(rng, cs, n) }
	b64 := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	var out []string
	for range 20 {
		out = append(out,
			"toolu_01"+f(alnum, 22),
			"call_"+f(alnum, 24),
			"msg_01"+f(alnum, 22),
			"fc_"+f(hex, 48),
			"commit "+f(hex, 40),
			f(hex, 8)+"-"+f(hex, 4)+"-4"+f(hex, 3)+"-a"+f(hex, 3)+"-"+f(hex, 12),
			"sha256:"+f(hex, 64),
			"h1:"+f(b64, 43)+"=",
			`{"type":"base64","data":"`+f(b64, 120)+`=="}`,
			"github.com/"+f(lower, 8)+"/"+f(lower, 6)+" v1.2."+f("0123456789", 1)+" h1:"+f(b64, 43)+"=",
		)
	}
	return out
}

// TestLookAlikesKept: none of 200 look-alikes is replaced (the false
// positive rate is logged, and must be zero).
func TestLookAlikesKept(t *testing.T) {
	all := lookAlikes()
	replaced := 0
	for _, s := range all {
		r := redact.New()
		if got := r.String(s); got != s {
			replaced++
			t.Errorf("look-alike replaced:\n %s\n→%s", s, got)
		}
	}
	t.Logf("false positives: %d of %d look-alikes (%.1f%%)", replaced, len(all), 100*float64(replaced)/float64(len(all)))
}
