// Package spell finds the name a misspelt word was likely meant to be:
// the "did you mean" of toolsim's error messages (an unknown event kind,
// an unknown flag).
package spell
