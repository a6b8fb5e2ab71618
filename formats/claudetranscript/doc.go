// Package claudetranscript imports Claude Code persisted transcripts (~/.claude/projects/*/*.jsonl) as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package claudetranscript
