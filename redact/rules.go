package redact

import (
	"regexp"
	"strings"
)

// rule is one detector: a kind, an expression, the submatch that is the
// secret (0: the whole match), and literal hints of which one must occur
// in a string before the expression is tried (none: always tried).
type rule struct {
	kind  string
	re    *regexp.Regexp
	group int
	hints []string
	fold  bool // the hints are matched case-insensitively
}

// rules run in order: the most specific first, so that a key inside a
// bearer header is named for its provider. A placeholder contains none of
// the characters the expressions need, so a later rule never matches one.
var rules = []rule{
	{kind: "private-key", hints: []string{"PRIVATE KEY"},
		re: regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[A-Za-z0-9+/=\s\\:,.-]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----`)},
	{kind: "anthropic-key", hints: []string{"sk-ant-"},
		re: regexp.MustCompile(`sk-ant-[a-z]+[0-9]*-[A-Za-z0-9_-]{20,}`)},
	{kind: "openai-key", hints: []string{"sk-"},
		re: regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}`)},
	{kind: "google-api-key", hints: []string{"AIza"},
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}`)},
	{kind: "google-oauth-token", hints: []string{"ya29."},
		re: regexp.MustCompile(`\bya29\.[0-9A-Za-z_-]{20,}`)},
	{kind: "github-token", hints: []string{"gh", "github_pat_"},
		re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`)},
	{kind: "aws-access-key", hints: []string{"AKIA", "ASIA", "ABIA", "ACCA"},
		re: regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b`)},
	{kind: "aws-secret-key", hints: []string{"aws"}, fold: true, group: 1,
		re: regexp.MustCompile(`(?i)aws.{0,20}?(?:secret|private).{0,20}?[:=][\s"'\\]*([A-Za-z0-9/+]{40})\b`)},
	{kind: "slack-token", hints: []string{"xox"},
		re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`)},
	{kind: "slack-webhook", hints: []string{"hooks.slack.com"},
		re: regexp.MustCompile(`https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+`)},
	{kind: "jwt", hints: []string{"eyJ"},
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`)},
	{kind: "bearer-token", hints: []string{"bearer"}, fold: true, group: 1,
		re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{12,}=*)`)},
	{kind: "credential", hints: []string{"key", "token", "secret", "password", "passwd"}, fold: true, group: 1,
		re: regexp.MustCompile(`(?i)(?:api[_-]?key|access[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|password|passwd)\\?["']?\s*[:=]\s*\\?["']?([A-Za-z0-9._~+/-]{12,})`)},
	{kind: "email", hints: []string{"@"},
		re: regexp.MustCompile(`\b[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`)},
	{kind: "home", hints: []string{"/home/", "/Users/", `Users\`}, group: 1,
		re: regexp.MustCompile(`(/home/[A-Za-z0-9._-]+|/Users/[A-Za-z0-9._-]+|[A-Za-z]:(?:\\\\|\\)Users(?:\\\\|\\)[A-Za-z0-9._-]+)`)},
}

// applies reports whether one of the rule's hints occurs in s (lower is s
// in lower case, computed once per string when a folding rule needs it).
func (r *rule) applies(s string, lower *string) bool {
	if len(r.hints) == 0 {
		return true
	}
	hay := s
	if r.fold {
		if *lower == "" {
			*lower = strings.ToLower(s)
		}
		hay = *lower
	}
	for _, h := range r.hints {
		if r.fold {
			h = strings.ToLower(h)
		}
		if strings.Contains(hay, h) {
			return true
		}
	}
	return false
}
