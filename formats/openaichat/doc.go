// Package openaichat imports OpenAI Chat Completions SSE streams as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package openaichat
