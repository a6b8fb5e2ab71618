// Package acp imports Agent Client Protocol JSON-RPC traffic, raw or inside log lines with a prefix as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package acp
