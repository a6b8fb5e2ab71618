// Package gemini imports Gemini CLI chat recordings (~/.gemini/tmp/*/chats/*.json) as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package gemini
