package codexrollout

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"strconv"
	"strings"
)

// outputResult is what a call's result says.
type outputResult struct {
	text       string
	ok         bool
	err        string
	exit       *int
	duration   *int64
	unreadable bool
	denied     bool // the user rejected the call (an approval declined)
	aborted    bool // the user interrupted the call ("aborted by user after 0.3s")
}

// execOutput is the JSON Codex puts in a shell call's output string.
type execOutput struct {
	Output   *string `json:"output"`
	ExitCode *int    `json:"exit_code"`
	Metadata *struct {
		ExitCode        *int     `json:"exit_code"`
		DurationSeconds *float64 `json:"duration_seconds"`
	} `json:"metadata"`
}

// exitLine and wallLine find the exit code and wall time notes Codex
// writes around a command's output.
var (
	exitLine = regexp.MustCompile(`(?m)^(?:Exit code:|Process exited with code) (-?\d+)\s*$`)
	wallLine = regexp.MustCompile(`(?m)^Wall time: ([0-9.]+) seconds\s*$`)
	// failLine finds the failure reports Codex writes as plain text, e.g.
	// "failed in sandbox MacosSeatbelt with execution error: sandbox
	// denied exec error, exit code: 2, stdout: , stderr: …" or
	// "execution error: … exit code: 1".
	failLine = regexp.MustCompile(`(?m)^.*(?:sandbox denied|\bexit code:? (-?\d+)).*$`)
)

// rejectedMax bounds the outputs read as a rejection: Codex's own notes
// ("patch rejected by user", "exec command rejected by user") are one short
// line; a long output that merely mentions the words is a command's.
const rejectedMax = 200

// parseOutput reads a function_call_output / custom_tool_call_output
// output: a string (itself often JSON with output and metadata.exit_code),
// a list of content items, or an object {content, success}.
func parseOutput(raw json.RawMessage) outputResult {
	res := outputResult{ok: true}
	raw = bytes.TrimSpace(raw)
	var text string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return res
	case raw[0] == '"':
		_ = json.Unmarshal(raw, &text)
	case raw[0] == '[':
		text, _ = contentText(raw)
	case raw[0] == '{':
		return objectOutput(raw)
	default:
		res.text, res.unreadable = string(raw), true
		return res
	}
	res.text = text
	res.readText(text)
	if res.exit != nil && *res.exit != 0 && res.err == "" {
		res.ok, res.err = false, "exit code "+strconv.Itoa(*res.exit)
		if first := firstTextLine(res.text); first != "" {
			res.err += ": " + first
		}
	}
	return res
}

// objectOutput reads an output object {content, success}; another object
// is kept raw.
func objectOutput(raw json.RawMessage) outputResult {
	var obj struct {
		Content json.RawMessage `json:"content"`
		Success *bool           `json:"success"`
	}
	if json.Unmarshal(raw, &obj) == nil && len(obj.Content) > 0 {
		inner := parseOutput(obj.Content)
		if obj.Success != nil && !*obj.Success && inner.ok {
			inner.ok, inner.err = false, "failed"
		}
		return inner
	}
	return outputResult{ok: true, text: string(raw), unreadable: true}
}

// readText reads what Codex says about a command in its output text: the
// exec JSON, the exit code and wall time notes, or an abort.
func (res *outputResult) readText(text string) {
	trimmed := strings.TrimSpace(text)
	if strings.HasPrefix(trimmed, "{") {
		res.readExecJSON(trimmed)
	} else if m := exitLine.FindStringSubmatch(text); m != nil {
		if code, err := strconv.Atoi(m[1]); err == nil {
			res.exit = &code
		}
		if w := wallLine.FindStringSubmatch(text); w != nil {
			if f, err := strconv.ParseFloat(w[1], 64); err == nil {
				ms := int64(math.Round(f * 1000))
				res.duration = &ms
			}
		}
	} else if trimmed == "aborted" || strings.HasPrefix(trimmed, "aborted by user") {
		res.ok, res.err, res.aborted = false, trimmed, true
	} else if len(trimmed) <= rejectedMax && !strings.Contains(trimmed, "\n") && strings.Contains(strings.ToLower(trimmed), "rejected by user") {
		res.denied = true
	} else {
		res.readFailure(text)
	}
}

// readFailure reads a plain-text failure report: a sandbox denial, or
// "exit code: N" with N ≠ 0 within a line. The line is the error.
func (res *outputResult) readFailure(text string) {
	for _, m := range failLine.FindAllStringSubmatch(text, -1) {
		line := strings.TrimSpace(m[0])
		if m[1] != "" {
			code, err := strconv.Atoi(m[1])
			if err != nil || code == 0 {
				continue
			}
			res.exit = &code
		}
		res.ok, res.err = false, line
		return
	}
}

// readExecJSON reads the JSON Codex puts in a shell call's output string:
// the output, the exit code and the duration.
func (res *outputResult) readExecJSON(trimmed string) {
	var eo execOutput
	if json.Unmarshal([]byte(trimmed), &eo) != nil || (eo.Output == nil && eo.ExitCode == nil && eo.Metadata == nil) {
		return
	}
	if eo.Output != nil {
		res.text = *eo.Output
	}
	res.exit = eo.ExitCode
	if eo.Metadata != nil {
		if res.exit == nil {
			res.exit = eo.Metadata.ExitCode
		}
		if d := eo.Metadata.DurationSeconds; d != nil && *d >= 0 && !math.IsInf(*d, 0) {
			ms := int64(math.Round(*d * 1000))
			res.duration = &ms
		}
	}
}

// codexNotes start the lines Codex adds around a command's output.
var codexNotes = []string{"Total output lines:", "Exit code:", "Wall time:", "Output:",
	"Process exited with code", "Chunk ID:", "Original token count:"}

// firstTextLine is the first non-blank line of a command's output, past
// the notes Codex adds (exit code, wall time, truncation).
func firstTextLine(text string) string {
next:
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		for _, note := range codexNotes {
			if strings.HasPrefix(line, note) {
				continue next
			}
		}
		return line
	}
	return ""
}
