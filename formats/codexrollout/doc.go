// Package codexrollout imports Codex CLI rollouts (~/.codex/sessions/**/rollout-*.jsonl) as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package codexrollout
