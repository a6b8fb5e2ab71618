package codex

import (
	"encoding/json"
	"strings"
	"time"
)

// Duration reads a Codex duration, {"secs", "nanos"} or a string such as
// "1.2s" or "1s 200ms", in milliseconds; nil when absent, unreadable or
// negative.
func Duration(raw json.RawMessage) *int64 {
	var d struct {
		Secs  *int64 `json:"secs"`
		Nanos int64  `json:"nanos"`
	}
	var str string
	var ms int64
	switch {
	case len(raw) == 0:
		return nil
	case json.Unmarshal(raw, &d) == nil && d.Secs != nil:
		ms = *d.Secs*1000 + d.Nanos/1_000_000
	case json.Unmarshal(raw, &str) == nil:
		pd, err := time.ParseDuration(strings.ReplaceAll(str, " ", ""))
		if err != nil {
			return nil
		}
		ms = pd.Milliseconds()
	default:
		return nil
	}
	if ms < 0 {
		return nil
	}
	return &ms
}
