// Package anthropicsse imports Anthropic Messages API SSE streams as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package anthropicsse
