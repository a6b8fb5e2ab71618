//go:build !plantedbug

package chatui

// plantedBug is set by the plantedbug build tag (bug_on.go).
const plantedBug = false
