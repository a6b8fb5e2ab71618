package engine

import (
	"encoding/json"
	"strings"
)

// summaryArgs are the argument members a summary may come from.
type summaryArgs struct {
	Command  json.RawMessage `json:"command"`
	Path     json.RawMessage `json:"path"`
	FilePath json.RawMessage `json:"file_path"`
	Pattern  json.RawMessage `json:"pattern"`
	Query    json.RawMessage `json:"query"`
	URL      json.RawMessage `json:"url"`
}

// Summary returns the one-line summary of a tool's arguments: the first line
// of `command`, else `path` or `file_path`, else `pattern`, else `query`,
// else `url`, else "". A command given as an argv array is joined with
// spaces, except `sh -c SCRIPT` style arrays, which give SCRIPT. Members of
// another type are skipped.
func Summary(args json.RawMessage) string {
	if len(args) == 0 {
		return ""
	}
	var a summaryArgs
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	if s := command(a.Command); s != "" {
		return firstLine(s)
	}
	for _, raw := range []json.RawMessage{a.Path, a.FilePath, a.Pattern, a.Query, a.URL} {
		var s string
		if raw != nil && json.Unmarshal(raw, &s) == nil && s != "" {
			return firstLine(s)
		}
	}
	return ""
}

func command(raw json.RawMessage) string {
	if raw == nil {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var argv []string
	if json.Unmarshal(raw, &argv) != nil {
		return ""
	}
	if len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

func firstLine(s string) string {
	s = strings.TrimLeft(s, "\n")
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return strings.TrimRight(s, "\r")
}
