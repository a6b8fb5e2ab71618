package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
)

// rule is one detector: a kind, an expression, the submatch that is the
// secret (0: the whole match, or with firstGroup the first non-empty
// one), literal hints of which one must occur in a string before the
// expression is tried (none: always tried), and the checks a match must
// pass to count: a minimum entropy, a digit (gitleaks' generic rules), and
// no allowlist matching it.
type rule struct {
	kind       string
	re         *regexp.Regexp
	group      int
	firstGroup bool
	hints      []string // lower case when fold is set
	fold       bool     // the hints are matched case-insensitively
	entropy    float64
	digit      bool
	allow      []*allowlist
	// window runs the expression on windows around the hints'
	// occurrences (gitleaks' semi-generic rules; see semiGeneric).
	window bool
}

// findAll returns the rule's matches in s as FindAllStringSubmatchIndex
// does (lower is s in lower case when the rule folds). A windowed rule
// looks only around its hints, and at the whole string when a match
// reaches a window's cut end (it could go on past it).
func (r *rule) findAll(s, lower string) [][]int {
	if !r.window {
		return r.re.FindAllStringSubmatchIndex(s, -1)
	}
	var out [][]int
	for _, w := range r.windows(lower, len(s)) {
		for _, loc := range r.re.FindAllStringSubmatchIndex(s[w[0]:w[1]], -1) {
			if loc[1] == w[1]-w[0] && w[1] < len(s) {
				// It may go on past the cut: look at the whole string.
				return r.re.FindAllStringSubmatchIndex(s, -1)
			}
			if len(out) > 0 && w[0]+loc[0] < out[len(out)-1][1] {
				continue // overlaps a match of the window before
			}
			for k := range loc {
				if loc[k] >= 0 {
					loc[k] += w[0]
				}
			}
			out = append(out, loc)
		}
	}
	return out
}

// windows lists the merged spans of s (of length n) around every
// occurrence of a hint in lower.
func (r *rule) windows(lower string, n int) [][2]int {
	var spans [][2]int
	for _, h := range r.hints {
		for i := 0; ; {
			j := strings.Index(lower[i:], h)
			if j < 0 {
				break
			}
			p := i + j
			// Lower-casing may change a non-ASCII string's length: the
			// spans are clamped to s (the same length but for that).
			lo, hi := min(max(p-windowBefore, 0), n), min(p+len(h)+windowAfter, n)
			spans = append(spans, [2]int{lo, hi})
			i = p + 1
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	merged := spans[:0]
	for _, sp := range spans {
		if n := len(merged); n > 0 && sp[0] <= merged[n-1][1] {
			merged[n-1][1] = max(merged[n-1][1], sp[1])
			continue
		}
		merged = append(merged, sp)
	}
	return merged
}

// rules run in order: gitleaks' provider rules first, so that a key is
// named for its provider, then toolsim's own (bearer tokens, e-mail
// addresses, home directories), then the generic ones, gitleaks' and
// toolsim's key-value credentials. A placeholder contains none of the
// characters the expressions need, so a later rule never matches one.
//
// They are compiled on first use, not when the program starts: every
// toolsim command links this package, and 220 expressions take a while.
var rules = sync.OnceValue(buildRules)

func buildRules() []rule {
	specific, generic, err := loadGitleaks(gitleaksTOML)
	if err != nil {
		panic("redact: the embedded " + err.Error()) // TestRulesLoad keeps it from happening
	}
	out := append(specific, own...)
	out = append(out, generic...)
	return append(out, credential)
}

// own are toolsim's additions to gitleaks' rules, written here before
// gitleaks' were used and kept for the shapes gitleaks' expressions are
// stricter about (keys without their provider's checksum part, shorter
// fine-grained tokens), and for what gitleaks has no rule for: provider
// keys, a GCP service account's private_key_id, passwords in URLs, bearer
// tokens, e-mail addresses, home directories. Their key-value credential
// rule (credential) runs after gitleaks' generic rules.
var own = []rule{
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
	{kind: "gcp-private-key-id", hints: []string{"private_key_id"}, group: 1,
		re: regexp.MustCompile(`private_key_id\\?["']?\s*[:=]\s*\\?["']?([a-f0-9]{40})`)},
	{kind: "url-credential", hints: []string{"://"}, group: 1,
		re: regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@'"]+:([^/\s@'"]{3,})@`)},
	{kind: "bearer-token", hints: []string{"bearer"}, fold: true, group: 1,
		re: regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/-]{12,}=*)`)},
	{kind: "email", hints: []string{"@"},
		re: regexp.MustCompile(`\b[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b`),
		// An SSH git remote, or a no-reply address: not a person.
		allow: []*allowlist{{regexes: []*regexp.Regexp{regexp.MustCompile(`^(?:git|no-?reply)@|@users\.noreply\.github\.com$`)}}}},
	{kind: "home", hints: []string{"/home/", "/Users/", `Users\`}, group: 1,
		re: regexp.MustCompile(`(/home/[A-Za-z0-9._-]+|/Users/[A-Za-z0-9._-]+|[A-Za-z]:(?:\\\\|\\)Users(?:\\\\|\\)[A-Za-z0-9._-]+)`)},
}

// credential is toolsim's key-value credential rule, run after gitleaks'
// generic rules.
var credential = rule{kind: "credential", hints: []string{"key", "token", "secret", "password", "passwd"}, fold: true, group: 1, window: true,
	re: regexp.MustCompile(`(?i)(?:api[_-]?key|access[_-]?key|secret[_-]?key|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|password|passwd)\\?["']?\s*[:=]\s*\\?["']?([A-Za-z0-9._~+/-]{12,})`),
	// A dotted name is code that reads the secret (config.api_key), not the secret.
	allow: []*allowlist{{regexes: []*regexp.Regexp{regexp.MustCompile(`^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$`)}}}}

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
		if strings.Contains(hay, h) {
			return true
		}
	}
	return false
}

// secret returns the span of the secret in a match (loc as
// FindAllStringSubmatchIndex gives it), or false when the match is not a
// secret: too little entropy, no digit in a generic rule's secret, or an
// allowlist lets it through.
func (r *rule) secret(s string, loc []int) (start, end int, ok bool) {
	g := r.group
	if r.firstGroup {
		for k := 1; k < len(loc)/2; k++ {
			if loc[2*k] >= 0 && loc[2*k+1] > loc[2*k] {
				g = k
				break
			}
		}
	}
	start, end = loc[2*g], loc[2*g+1]
	if start < 0 || end <= start {
		return 0, 0, false
	}
	sec := s[start:end]
	if r.entropy > 0 && entropy(sec) <= r.entropy {
		return 0, 0, false
	}
	if r.digit && !strings.ContainsFunc(sec, unicode.IsDigit) {
		return 0, 0, false
	}
	for _, a := range r.allow {
		if a.allows(sec, s[loc[0]:loc[1]], s) {
			return 0, 0, false
		}
	}
	return start, end, true
}
