// Package redact replaces secrets and personal data in a canonical trace
// with stable placeholders, so that a trace can be shared: API keys and
// tokens of the common providers (OpenAI, Anthropic, Google, GitHub, AWS,
// Slack), JSON Web Tokens, bearer tokens, key-value credentials
// ("api_key: …", "password=…"), private key blocks, e-mail addresses and
// home-directory paths (/home/NAME, /Users/NAME, C:\Users\NAME).
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
// # Detector set
//
// The rules are written here (rules.go), from the documented shapes of
// each provider's credentials. A maintained detector set was looked for
// first: gitleaks' rule set is the field's reference, but its Go module
// (github.com/zricethezav/gitleaks/v8) brings viper, zerolog, a
// WebAssembly RE2 engine and archive readers along with its config
// package, which is far more than a trace tool should depend on, and its
// 200-odd rules run one regular expression each over every string. The
// rules here cover the providers a coding agent's logs carry; each has a
// literal hint that must occur before its expression runs.
package redact
