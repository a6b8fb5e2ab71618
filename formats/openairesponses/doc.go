// Package openairesponses imports OpenAI Responses API SSE streams as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package openairesponses
