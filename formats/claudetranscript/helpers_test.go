package claudetranscript_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/claudetranscript"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/importer"
)

// --- building inline transcripts ---

type obj = map[string]any

var base = time.Date(2025, 10, 24, 20, 0, 0, 0, time.UTC)

// at is a timestamp ms milliseconds after base.
func at(ms int) string {
	return base.Add(time.Duration(ms) * time.Millisecond).Format(time.RFC3339Nano)
}

// rec is one transcript line: a record of type typ with its chain links.
// kv adds or overrides members.
func rec(typ, uuid, parent string, ms int, message any, kv ...any) string {
	m := obj{"type": typ, "uuid": uuid, "timestamp": at(ms), "sessionId": "s1", "isSidechain": false, "userType": "external"}
	if parent == "" {
		m["parentUuid"] = nil
	} else {
		m["parentUuid"] = parent
	}
	if message != nil {
		m["message"] = message
	}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func umsg(content any) obj { return obj{"role": "user", "content": content} }

func amsg(id string, blocks ...obj) obj {
	return obj{"role": "assistant", "id": id, "model": "claude-sonnet-4-5", "type": "message", "content": blocks, "stop_reason": nil}
}

func text(s string) obj { return obj{"type": "text", "text": s} }

func thinking(s string) obj { return obj{"type": "thinking", "thinking": s, "signature": "x"} }

func use(id, name string, input any) obj {
	return obj{"type": "tool_use", "id": id, "name": name, "input": input}
}

func result(id string, content any, isErr bool) obj {
	return obj{"type": "tool_result", "tool_use_id": id, "content": content, "is_error": isErr}
}

// prompt, say, call and answer are the common records.
func prompt(uuid, parent string, ms int, s string) string {
	return rec("user", uuid, parent, ms, umsg(s))
}

func say(uuid, parent string, ms int, msgID, s string) string {
	return rec("assistant", uuid, parent, ms, amsg(msgID, text(s)))
}

func call(uuid, parent string, ms int, msgID, id, name string) string {
	return rec("assistant", uuid, parent, ms, amsg(msgID, use(id, name, obj{"command": "cmd " + id})))
}

func answer(uuid, parent string, ms int, id string, content any, isErr bool, kv ...any) string {
	return rec("user", uuid, parent, ms, umsg([]obj{result(id, content, isErr)}), kv...)
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// --- reading the result ---

// brief is one event in a short, stable form.
func brief(ev event.Event) string {
	switch ev.Kind {
	case event.KindTurnStart:
		return "turn_start " + ev.Role
	case event.KindUser, event.KindText, event.KindThinking:
		return fmt.Sprintf("%s %q", ev.Kind, ev.Text)
	case event.KindToolStart:
		s := fmt.Sprintf("tool_start %s %s", ev.ID, ev.Name)
		if ev.Batch != "" {
			s += " batch=" + ev.Batch
		}
		if ev.Parent != "" {
			s += " parent=" + ev.Parent
		}
		return s
	case event.KindToolProgress:
		return fmt.Sprintf("tool_progress %s %q", ev.ID, ev.Output)
	case event.KindToolDone:
		s := fmt.Sprintf("tool_done %s ok=%v %q", ev.ID, ev.OK, ev.Output)
		if ev.Error != "" {
			s += fmt.Sprintf(" error=%q", ev.Error)
		}
		if ev.DurationMS != nil {
			s += fmt.Sprintf(" duration=%d", *ev.DurationMS)
		}
		return s
	case event.KindPermission:
		return fmt.Sprintf("permission %s %s", ev.ID, ev.State)
	case event.KindCancel:
		return fmt.Sprintf("cancel %q", ev.Reason)
	case event.KindError:
		return fmt.Sprintf("error %q", ev.Message)
	case event.KindCompact:
		return fmt.Sprintf("compact %q", ev.Text)
	}
	return string(ev.Kind)
}

func extra(ev event.Event, key string) string {
	for _, f := range ev.Extra {
		if f.Key == key {
			return string(f.Value)
		}
	}
	return ""
}

func run(t *testing.T, src string) *importer.Result {
	t.Helper()
	res, err := claudetranscript.Importer{}.Import(strings.NewReader(src), importer.Options{Name: "test.jsonl"})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	return res
}

func briefs(res *importer.Result) []string {
	var out []string
	for _, ev := range res.Events {
		out = append(out, brief(ev))
	}
	return out
}

func problems(res *importer.Result) []string {
	var out []string
	for _, p := range res.Problems {
		out = append(out, p.String())
	}
	return out
}

// checkOracles replays the events through the reference engine and checks
// every SPEC §5 oracle.
func checkOracles(t *testing.T, evs []event.Event) {
	t.Helper()
	for _, v := range harness.Check(func() harness.Engine { return engine.New(engine.Options{}) }, evs) {
		t.Errorf("oracle: %s", v)
	}
}

type mapCase struct {
	name string
	src  string
	want []string // briefs of the events
	// check looks at anything else (extra fields, clock, meta).
	check func(t *testing.T, res *importer.Result)
}
