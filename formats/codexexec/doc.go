// Package codexexec imports `codex exec --json` event streams as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package codexexec
