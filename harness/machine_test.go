package harness

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"pgregory.net/rapid"
)

// TestReferenceStateMachine drives the reference engine through random
// actions — starts (some reusing ids, some batched, some children),
// progress, results, permissions, text, cancels, turn ends, strays — and
// checks every per-event oracle after each one, against the model.
func TestReferenceStateMachine(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		m := &machine{
			eng: engine.New(engine.Options{}),
			c:   NewStepper(Options{}),
		}
		rt.Repeat(map[string]func(*rapid.T){
			"start":      m.start,
			"progress":   func(t *rapid.T) { m.tool(t, event.Event{Kind: event.KindToolProgress, Output: "x\n"}) },
			"done":       m.done,
			"permission": m.permission,
			"text":       func(t *rapid.T) { m.emit(t, event.Event{Kind: event.KindText, Text: "hm"}) },
			"cancel":     func(t *rapid.T) { m.emit(t, event.Event{Kind: event.KindCancel}) },
			"unknown":    func(t *rapid.T) { m.emit(t, event.Event{Kind: "future_kind"}) },
			"thinking":   func(t *rapid.T) { m.emit(t, event.Event{Kind: event.KindThinking, Text: "hmm"}) },
			"user":       func(t *rapid.T) { m.emit(t, event.Event{Kind: event.KindUser, Text: "go on"}) },
			"error":      func(t *rapid.T) { m.emit(t, event.Event{Kind: event.KindError, Message: "overloaded"}) },
			"turn": func(t *rapid.T) {
				m.emit(t, event.Event{Kind: event.KindTurnEnd})
				m.emit(t, event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
			},
			"": func(t *rapid.T) {
				if len(m.found) > 0 {
					t.Fatalf("%v", m.found[0])
				}
			},
		})
	})
}

type machine struct {
	eng   *engine.Engine
	c     *Stepper
	found []Violation
	seq   int64
	ids   []string
}

var machineNames = []string{"grep", "read", "bash", "todowrite"}

func (m *machine) emit(t *rapid.T, ev event.Event) {
	m.seq++
	ev.Seq, ev.T = m.seq, m.seq*10
	m.eng.Apply(&ev)
	m.found = append(m.found, m.c.Step(&ev, m.eng)...)
	if len(m.found) > 0 {
		t.Fatalf("after %s: %v", event.AppendEvent(nil, &ev), m.found[0])
	}
}

// id draws a known id most of the time, else a new or empty one.
func (m *machine) id(t *rapid.T) string {
	if len(m.ids) > 0 && rapid.IntRange(0, 9).Draw(t, "known") < 8 {
		return rapid.SampledFrom(m.ids).Draw(t, "id")
	}
	return rapid.SampledFrom([]string{"", "ghost", fmt.Sprintf("n%d", m.seq)}).Draw(t, "new id")
}

func (m *machine) start(t *rapid.T) {
	id := m.id(t)
	ev := event.Event{Kind: event.KindToolStart, ID: id, Name: rapid.SampledFrom(machineNames).Draw(t, "name"), Args: json.RawMessage(`{"path":"a"}`)}
	if rapid.Bool().Draw(t, "batched") {
		ev.Batch = rapid.SampledFrom([]string{"b1", "b2"}).Draw(t, "batch")
	}
	if len(m.ids) > 0 && rapid.IntRange(0, 4).Draw(t, "child") == 0 {
		ev.Parent = rapid.SampledFrom(m.ids).Draw(t, "parent")
	}
	if id != "" {
		m.ids = append(m.ids, id)
	}
	m.emit(t, ev)
}

func (m *machine) tool(t *rapid.T, ev event.Event) {
	ev.ID = m.id(t)
	m.emit(t, ev)
}

func (m *machine) done(t *rapid.T) {
	ok := rapid.Bool().Draw(t, "ok")
	ev := event.Event{Kind: event.KindToolDone, OK: ok, Output: "out\n"}
	if !ok {
		ev.Error = "boom"
	}
	m.tool(t, ev)
}

func (m *machine) permission(t *rapid.T) {
	state := rapid.SampledFrom([]string{event.PermissionAsked, event.PermissionGranted, event.PermissionDenied}).Draw(t, "state")
	m.tool(t, event.Event{Kind: event.KindPermission, State: state})
}
