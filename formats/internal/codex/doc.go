// Package codex holds what the Codex importers (codex-rollout and
// codex-tui-session-log) read alike: Codex's own encodings of values.
// Importers never import each other; they share this instead.
package codex
