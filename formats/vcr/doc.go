// Package vcr imports go-vcr cassettes (YAML) holding model requests and streamed responses as canonical toolsim traces.
//
// Not implemented yet: Import returns an error and Detect matches nothing.
package vcr
