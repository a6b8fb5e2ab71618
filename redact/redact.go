package redact

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// Redactor replaces secrets with placeholders, the same secret with the
// same placeholder for as long as it is used. Use one per trace. The zero
// value is not ready: call New.
type Redactor struct {
	seen   map[string]named // secret → its placeholder
	counts map[string]int   // per kind
	// Found counts the replacements made, by kind.
	Found map[string]int
}

// named is a secret's placeholder and the kind it was first met as.
type named struct{ placeholder, kind string }

// New returns a Redactor with no secrets met yet.
func New() *Redactor {
	return &Redactor{seen: map[string]named{}, counts: map[string]int{}, Found: map[string]int{}}
}

// Placeholder matches any placeholder a Redactor writes.
var Placeholder = regexp.MustCompile(`\[redacted:[a-z0-9-]+:[0-9]+\]`)

// placeholder returns the placeholder of a secret a rule of kind found.
// A secret keeps the placeholder, and the kind, of the rule that first
// found it: a key in a prompt and the same key in a curl command's header
// (which a more specific rule names) read the same.
func (r *Redactor) placeholder(kind, secret string) named {
	if n, ok := r.seen[secret]; ok {
		return n
	}
	r.counts[kind]++
	n := named{fmt.Sprintf("[redacted:%s:%d]", kind, r.counts[kind]), kind}
	r.seen[secret] = n
	return n
}

// String returns s with every secret replaced by its placeholder.
func (r *Redactor) String(s string) string {
	if s == "" {
		return s
	}
	lower := ""
	rs := rules()
	for i := range rs {
		ru := &rs[i]
		if !ru.applies(s, &lower) {
			continue
		}
		s = r.apply(ru, s, lower)
		lower = "" // s may have changed
	}
	return s
}

// apply replaces the matches of one rule in s.
func (r *Redactor) apply(ru *rule, s, lower string) string {
	locs := ru.findAll(s, lower)
	if locs == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, loc := range locs {
		start, end, ok := ru.secret(s, loc)
		if !ok || start < last {
			continue
		}
		b.WriteString(s[last:start])
		n := r.placeholder(ru.kind, s[start:end])
		b.WriteString(n.placeholder)
		r.Found[n.kind]++
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}

// JSON returns raw with every string in it (values and object keys)
// redacted; everything else — structure, key order, numbers, spacing — is
// kept.
// Input that is not valid JSON is returned as it is.
func (r *Redactor) JSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !json.Valid(raw) {
		return raw
	}
	var out []byte
	last := 0
	for i := 0; i < len(raw); i++ {
		if raw[i] != '"' {
			continue
		}
		end := stringEnd(raw, i)
		var s string
		if json.Unmarshal(raw[i:end+1], &s) == nil {
			if red := r.String(s); red != s {
				out = append(out, raw[last:i]...)
				out = appendString(out, red)
				last = end + 1
			}
		}
		i = end
	}
	if out == nil {
		return raw
	}
	return append(out, raw[last:]...)
}

// stringEnd is the index of the quote that closes the JSON string opened
// at raw[i] (raw is valid JSON).
func stringEnd(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(raw) - 1
}

// appendString appends s as a JSON string without HTML escaping.
func appendString(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})...)
}

// Event redacts the string fields and JSON members of ev in place.
func (r *Redactor) Event(ev *event.Event) {
	for _, p := range []*string{&ev.ID, &ev.Text, &ev.Output, &ev.Error, &ev.Message, &ev.Reason, &ev.Batch, &ev.Parent} {
		*p = r.String(*p)
	}
	ev.Args = r.JSON(ev.Args)
	ev.Details = r.JSON(ev.Details)
	r.fields(ev.Extra)
}

// Header redacts a header's meta and unknown fields in place.
func (r *Redactor) Header(h *event.Header) {
	if h == nil {
		return
	}
	h.Meta = r.JSON(h.Meta)
	r.fields(h.Extra)
}

func (r *Redactor) fields(fs []event.Field) {
	for i := range fs {
		fs[i].Value = r.JSON(fs[i].Value)
	}
}

// Trace redacts a whole trace in place with a new Redactor, and returns
// it (its Found counts what was replaced).
func Trace(h *event.Header, evs []event.Event) *Redactor {
	r := New()
	r.Header(h)
	for i := range evs {
		r.Event(&evs[i])
	}
	return r
}
