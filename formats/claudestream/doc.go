// Package claudestream imports Claude Code stream-json (`claude -p --output-format stream-json`, the Agent SDK message stream) as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package claudestream
