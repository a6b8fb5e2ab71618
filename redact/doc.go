// Package redact replaces secrets and personal data in a canonical trace
// with stable placeholders, so that a trace can be shared: whatever
// gitleaks' default rules detect (cloud, VCS and package-registry tokens,
// payment, chat and AI provider keys, private keys, JWTs, generic
// "KEY=value" assignments with entropy), bearer tokens, passwords in URLs,
// key-value credentials, e-mail addresses and home-directory paths
// (/home/NAME, /Users/NAME, C:\Users\NAME).
//
// # Placeholders
//
// A match becomes "[redacted:KIND:N]": KIND names the rule, N counts the
// distinct secrets of that kind in the order a Redactor first meets them.
// One Redactor is used for one trace, so the same secret gets the same
// placeholder wherever it appears — in ids, text, arguments, output,
// unknown fields and the header meta — and pairing, grouping and statuses
// are unchanged. A home directory keeps the rest of its path:
// /home/alice/src/app becomes [redacted:home:1]/src/app. For rules that
// name what they guard (bearer tokens, key-value credentials) only the
// value is replaced: "Authorization: Bearer [redacted:bearer-token:1]".
//
// # What is looked at
//
// Every string field of every event (id, text, output, error, message,
// reason, batch, parent) and every string inside its JSON members (args,
// details, unknown fields: values and object keys alike) and inside the
// header's meta and unknown fields. Kinds, roles, states and tool names
// are left as they are. JSON values are rewritten string by string, so
// their structure, key order and numbers are kept.
//
// Limits: a secret split across two events (streamed text deltas) is
// seen in halves and may not be recognised; a secret hidden by JSON
// \u escapes in a raw capture is caught only in the imported trace.
//
// # Checking files
//
// [Check] finds what redaction would replace in files of any text format
// without writing anything (toolsim redact --check, a pre-commit hook or a
// CI gate): each [Finding] names a file, a line and the rules, never the
// secret. A line that is valid JSON is read with its strings unescaped.
// An ignore file ([ReadIgnore], by default [IgnoreFile]) accepts what is
// known, by file glob and rule.
//
// # Detector set
//
// The rules are gitleaks' default rule set, which the field maintains
// (about 220 rules, with tests per rule upstream): gitleaks.toml is
// config/gitleaks.toml of GitleaksModule, copied byte for byte by go
// generate (internal/fetchrules asks the go command for the pinned
// module), and TestRulesArePinned checks the copy against the module. Each
// rule keeps gitleaks' keywords (a hint that must occur before its
// expression runs), its secret group, entropy threshold, the digit its
// generic rules require, and its allowlists and the global one (stop
// words, placeholders such as ${VAR}); rules that apply only to files of
// a given path are left out, a trace having no paths. Rules are compiled
// on first use (about 20 ms).
//
// Why not depend on gitleaks' own packages: its config package comes with
// viper, zerolog, a WebAssembly RE2 engine and archive readers, far more
// than a trace tool should link; reading the rule file needs only a TOML
// parser (github.com/BurntSushi/toml). The embedded file adds 98 KB to
// the binary, the parser and loader about 0.4 MB (13.46 → 13.84 MB for
// cmd/toolsim).
//
// toolsim's own rules stay, after gitleaks' provider rules: e-mail
// addresses (not git@ remotes or no-reply addresses), home directories, a
// GCP service account's private_key_id and passwords in URLs (gitleaks has
// no rule for either), bearer tokens, provider keys in shapes gitleaks'
// expressions are stricter about, and key-value credentials (not a dotted
// name in code). gitleaks' generic rules run last, so that a key is named
// for its provider.
//
// Speed: gitleaks' "NAME = value" rules (about 100) run on windows around
// their keywords instead of whole strings, and on the whole string only
// when a match reaches a window's end. Redacting the largest shared trace
// line by line (BenchmarkLargestSharedTrace) runs at 1.7 to 2.3 MB/s,
// against 4.6 to 6.0 MB/s for the 15 hand-written rules this set replaced
// (the same machine, alternated runs; about 2.7 times slower). toolsim
// redact on that 342 KB Codex rollout takes 0.10 s instead of 0.03 s.
//
// The Trace example redacts a key, an e-mail address and a home path.
package redact
