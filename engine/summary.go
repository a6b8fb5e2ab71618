package engine

import (
	"bytes"
	"encoding/json"
	"strings"
)

// summaryKeys are the argument members a summary may come from, in order
// of preference; path, file_path and absolute_path share a rank.
var summaryKeys = [...]string{"command", "path", "file_path", "absolute_path", "pattern", "query", "url", "description"}

// patternRank is where pattern sits in summaryKeys.
const patternRank = 4

// patternFirst names real agents' search tools, whose pattern says more
// than the directory searched: Claude Code's Grep, Gemini CLI's
// search_file_content and grep_search.
var patternFirst = map[string]bool{"Grep": true, "search_file_content": true, "grep_search": true}

// Summary returns the one-line summary of a tool's arguments. Arguments
// of seed 003's agent delegation shape (`chain` or `tasks` an array of
// {agent, task} string objects, or non-empty `agent` and `task` strings)
// give the seed's toolTitle: `chain (N steps)` for a non-empty chain, else
// `parallel (N tasks)` for non-empty tasks, else the agent. Any other
// arguments, or that shape with none of the three, give the first line of
// `command`, else `path`, `file_path` or `absolute_path`, else `pattern`,
// else `query`, else `url`, else `description` (a sub-agent Task's), else
// "". A command given as an argv array is joined with spaces, except
// `sh -c SCRIPT` style arrays, which give SCRIPT. Members of another type
// are skipped. Malformed arguments give "", never a panic.
func Summary(args json.RawMessage) string { return SummaryOf("", args) }

// SummaryOf is Summary for a tool of the given name: a search tool of a
// real agent (Grep, search_file_content, grep_search) shows its pattern
// before its path.
func SummaryOf(name string, args json.RawMessage) string {
	var vals [len(summaryKeys)][]byte
	var del delegationArgs
	eachMember(args, func(key, val []byte) {
		if del.note(key, val) {
			return
		}
		for i, k := range summaryKeys {
			if string(key) == k && vals[i] == nil {
				vals[i] = val
			}
		}
	})
	if s := del.title(); s != "" {
		return s
	}
	if s := command(vals[0]); s != "" {
		return firstLine(s)
	}
	if patternFirst[name] {
		if s := jsonString(vals[patternRank]); s != "" {
			return firstLine(s)
		}
	}
	for _, raw := range vals[1:] {
		if s := jsonString(raw); s != "" {
			return firstLine(s)
		}
	}
	return ""
}

// eachMember calls fn with the unquoted key bytes and the raw value of each
// top-level member of a JSON object. It stops quietly at anything
// malformed.
func eachMember(b []byte, fn func(key, val []byte)) {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return
	}
	for i = skipWS(b, i+1); i < len(b) && b[i] == '"'; {
		ke := endString(b, i)
		key := b[i+1 : max(ke-1, i+1)]
		if bytes.IndexByte(key, '\\') >= 0 {
			key = []byte(jsonString(b[i:ke]))
		}
		i = skipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return
		}
		vs := skipWS(b, i+1)
		ve := endValue(b, vs)
		fn(key, b[vs:ve])
		i = skipWS(b, ve)
		if i >= len(b) || b[i] != ',' {
			return
		}
		i = skipWS(b, i+1)
	}
}

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// endString returns the index after the string literal whose quote is at i.
func endString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// endValue returns the index after the value starting at i.
func endValue(b []byte, i int) int {
	if i < len(b) && b[i] == '"' {
		return endString(b, i)
	}
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = endString(b, i) - 1
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		}
	}
	return len(b)
}

// jsonString decodes a raw JSON string value; anything else gives "".
func jsonString(raw []byte) string {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return ""
	}
	if inner := raw[1 : len(raw)-1]; bytes.IndexByte(inner, '\\') < 0 {
		return string(inner)
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

func command(raw []byte) string {
	if len(raw) == 0 || raw[0] != '[' {
		return jsonString(raw)
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
