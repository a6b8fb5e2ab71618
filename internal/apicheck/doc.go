// Package apicheck lists the exported API of toolsim's public packages,
// one line per exported name with its signature, in the spirit of the Go
// project's api/*.txt files. Its test compares the list with
// api/toolsim.txt at the repository root, so that a change to the public
// API is a deliberate, reviewed diff:
//
//	TOOLSIM_API_UPDATE=1 go test ./internal/apicheck
//
// rewrites the file. Public packages are those of the main module outside
// internal/, cmd/, testdata/ and examples/ (a separate module). Only
// source is read (go/parser): a line shows a declaration as written, not
// as go/types would resolve it.
package apicheck
