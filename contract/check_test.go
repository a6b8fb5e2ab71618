package contract_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
)

// trace builds events from a short notation, one event per string:
// "start a", "start a b1" (batch b1), "child c a" (parent a), "ok a",
// "progress a", "ask a", "grant a", "deny a", "text", "cancel", "end",
// "turn".
func trace(t *testing.T, steps ...string) []event.Event {
	t.Helper()
	var evs []event.Event
	for i, s := range steps {
		f := strings.Fields(s)
		ev := event.Event{Seq: int64(i + 1), T: int64(i)}
		arg := func(k int) string {
			if k < len(f) {
				return f[k]
			}
			return ""
		}
		switch f[0] {
		case "start":
			ev.Kind, ev.ID, ev.Name, ev.Batch, ev.Args = event.KindToolStart, arg(1), "grep", arg(2), json.RawMessage(`{}`)
		case "child":
			ev.Kind, ev.ID, ev.Name, ev.Parent, ev.Args = event.KindToolStart, arg(1), "grep", arg(2), json.RawMessage(`{}`)
		case "ok":
			ev.Kind, ev.ID, ev.OK = event.KindToolDone, arg(1), true
		case "progress":
			ev.Kind, ev.ID = event.KindToolProgress, arg(1)
		case "ask", "grant", "deny":
			ev.Kind, ev.ID = event.KindPermission, arg(1)
			ev.State = map[string]string{"ask": event.PermissionAsked, "grant": event.PermissionGranted, "deny": event.PermissionDenied}[f[0]]
		case "text":
			ev.Kind = event.KindText
		case "cancel":
			ev.Kind = event.KindCancel
		case "end":
			ev.Kind = event.KindTurnEnd
		case "turn":
			ev.Kind, ev.Role = event.KindTurnStart, event.RoleAssistant
		default:
			t.Fatalf("step %d: unknown %q", i, s)
		}
		evs = append(evs, ev)
	}
	return evs
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		want  contract.Guarantee // "" for inside every guarantee
		seq   int64
	}{
		{"a clean batch", []string{"turn", "text", "start a", "start b", "progress a", "ok b", "ok a", "text", "end"}, "", 0},
		{"an approval answered then run", []string{"start a", "ask a", "grant a", "progress a", "ok a"}, "", 0},
		{"a denial ends the call", []string{"start a", "ask a", "deny a", "end"}, "", 0},
		{"a pending approval may outlive its turn", []string{"turn", "start a", "ask a", "end", "turn", "grant a", "ok a"}, "", 0},
		{"a cancel ends every call", []string{"start a", "start b", "cancel", "end"}, "", 0},
		{"children run under their parent", []string{"start p", "child c p", "ok c", "ok p"}, "", 0},
		{"batch ids keep a batch together", []string{"start a m1", "start b m1", "ok a", "ok b", "start c m2", "ok c"}, "", 0},
		{"a result for an unknown id", []string{"start a", "ok x", "ok a"}, contract.KnownIDs, 2},
		{"a call with no id", []string{"start"}, contract.KnownIDs, 1},
		{"progress with no id", []string{"start a", "progress"}, contract.KnownIDs, 2},
		{"a result before its call", []string{"ok a", "start a"}, contract.CallsFirst, 1},
		{"a child before its parent", []string{"child c p", "start p"}, contract.CallsFirst, 1},
		{"a second result", []string{"start a", "ok a", "ok a"}, contract.OneResult, 3},
		{"progress after the result", []string{"start a", "ok a", "progress a"}, contract.OneResult, 3},
		{"a result after a cancel", []string{"start a", "cancel", "ok a"}, contract.NothingLate, 3},
		{"a result after a denial", []string{"start a", "ask a", "deny a", "ok a"}, contract.NothingLate, 4},
		{"a turn that ends with a call live, then its result", []string{"turn", "start a", "ok a", "end", "turn", "start b", "end", "turn", "ok b"}, contract.ResultsBeforeEnd, 7},
		{"one id twice in a batch", []string{"start a", "start a"}, contract.UniqueIDs, 2},
		{"one id in two batches", []string{"start a", "ok a", "text", "start a", "ok a"}, contract.FreshIDs, 4},
		{"progress while approval is pending", []string{"start a", "ask a", "progress a"}, contract.ApprovalFirst, 3},
		{"progress before the request", []string{"start a", "progress a", "ask a"}, contract.ApprovalFirst, 2},
		{"a denial that answers nothing", []string{"start a", "deny a"}, contract.AnswersAsked, 2},
		{"a grant answered twice", []string{"start a", "ask a", "grant a", "grant a"}, contract.AnswersAsked, 4},
		{"an approved call runs once its batch settled", []string{"start a", "start b", "start c", "ask a", "ask c", "grant a", "ok b", "grant c", "progress a", "ok c", "ok a"}, "", 0},
		{"an approved call runs after a denied one", []string{"start a", "start b", "ask a", "ask b", "grant a", "deny b", "ok a"}, "", 0},
		{"an approved call runs while another call runs", []string{"start a", "start b", "ask a", "grant a", "progress a", "ok b", "ok a"}, contract.ApprovedNext, 5},
		{"an approved call runs while another awaits its answer", []string{"start a", "start b", "ask a", "ask b", "grant a", "ok a", "grant b", "ok b"}, contract.ApprovedNext, 6},
		{"an approved call of an earlier turn", []string{"turn", "start a", "start b", "ask a", "ok b", "end", "turn", "start c", "grant a", "ok a", "ok c"}, "", 0},
		{"text while a call runs", []string{"start a", "text", "ok a"}, contract.ResponseFirst, 2},
		{"a batch spread over a result", []string{"start a m1", "ok a", "start b m1", "ok b"}, contract.ResponseFirst, 3},
		{"a second batch while a call runs", []string{"start a", "start b", "ok a", "start c"}, contract.StepsWait, 4},
		{"starts spread over a result", []string{"start a", "ok a", "start b", "ok b"}, "", 0},
		{"a turn that ends with a call live", []string{"turn", "start a", "end"}, contract.ResultsBeforeEnd, 3},
		{"a stream that ends with a call live", []string{"start a"}, contract.ResultsBeforeEnd, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs := trace(t, tt.steps...)
			b := contract.All.Check(evs)
			if tt.want == "" {
				if b != nil {
					t.Fatalf("Check = %s, want inside", b)
				}
				return
			}
			if b == nil || b.Guarantee != tt.want || b.Seq != tt.seq {
				t.Fatalf("Check = %v, want %s at seq %d", b, tt.want, tt.seq)
			}
			others := slicesWithout(contract.All, tt.want)
			if b := others.Check(evs); b != nil && b.Seq == tt.seq && b.Guarantee == tt.want {
				t.Errorf("without %s, Check still names it: %s", tt.want, b)
			}
			if b := (contract.List{tt.want}).Check(evs); b == nil || b.Guarantee != tt.want {
				t.Errorf("%s alone: Check = %v, want it named", tt.want, b)
			}
		})
	}
}

func slicesWithout(l contract.List, g contract.Guarantee) contract.List {
	var out contract.List
	for _, x := range l {
		if x != g {
			out = append(out, x)
		}
	}
	return out
}

// TestNothingLateAfterTurnEnd: without results-before-end, a result for a
// call its turn's end cut off is late.
func TestNothingLateAfterTurnEnd(t *testing.T) {
	evs := trace(t, "turn", "start b", "end", "turn", "ok b")
	b := contract.List{contract.NothingLate}.Check(evs)
	if b == nil || b.Guarantee != contract.NothingLate || b.Seq != 5 {
		t.Fatalf("Check = %v, want nothing-late at seq 5", b)
	}
}

// TestReusedIDs: an event for an id several calls share is inside when
// one reading of it is (a call that may take it), and outside only when
// the contract rules out every reading.
func TestReusedIDs(t *testing.T) {
	tests := []struct {
		name  string
		steps []string
		l     contract.List
		want  contract.Guarantee
	}{
		{"a result every call of the id already has", []string{"start a", "ok a", "start a m2", "ok a", "ok a"}, contract.List{contract.OneResult}, contract.OneResult},
		{"a result while the newer call awaits approval: a duplicate?", []string{"start a", "ok a", "start a m2", "ask a", "ok a"}, contract.List{contract.ApprovalFirst}, ""},
		{"the same, both readings ruled out", []string{"start a", "ok a", "start a m2", "ask a", "ok a"}, contract.List{contract.ApprovalFirst, contract.OneResult}, contract.ApprovalFirst},
		{"two live calls, one may report", []string{"start a", "start a m2", "ask a", "ok a"}, contract.List{contract.ApprovalFirst}, ""},
		{"a denial no call of the id asked for", []string{"start a", "start a m2", "deny a"}, contract.List{contract.AnswersAsked}, contract.AnswersAsked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.l.Check(trace(t, tt.steps...))
			if tt.want == "" && b != nil || tt.want != "" && (b == nil || b.Guarantee != tt.want) {
				t.Errorf("Check = %v, want %q", b, tt.want)
			}
		})
	}
}

func TestNoContractAllowsEverything(t *testing.T) {
	if b := contract.List(nil).Check(trace(t, "ok a", "start a", "start a", "deny a")); b != nil {
		t.Fatalf("an empty contract judged %s", b)
	}
}

func TestParse(t *testing.T) {
	tests := []struct {
		in, want string
		err      string
	}{
		{"", "none", ""},
		{"none", "none", ""},
		{"calls-first, known-ids,calls-first", "known-ids,calls-first", ""},
		{"executor", contract.Executor.String(), ""},
		{"executor,nothing-late,approved-next", contract.All.String(), ""},
		{"all", contract.All.String(), ""},
		{"calls-frist", "", `unknown guarantee "calls-frist" (known: none, all, executor, known-ids,`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			l, err := contract.Parse(tt.in)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Fatalf("Parse(%q) error = %v, want prefix %q", tt.in, err, tt.err)
				}
				return
			}
			if err != nil || l.String() != tt.want {
				t.Fatalf("Parse(%q) = %q, %v; want %q", tt.in, l, err, tt.want)
			}
		})
	}
	if _, err := contract.ParseBehaviours([]string{"open-after-turn", "spinners"}); err == nil || !strings.Contains(err.Error(), `"spinners"`) {
		t.Fatalf("ParseBehaviours: error = %v, want one naming spinners", err)
	}
}

func TestWithout(t *testing.T) {
	l := contract.List{contract.KnownIDs, contract.UniqueIDs, contract.CallsFirst, contract.FreshIDs}
	tests := []struct {
		name string
		gs   []contract.Guarantee
		want string
	}{
		{"none", nil, "known-ids,unique-ids,calls-first,fresh-ids"},
		{"two", []contract.Guarantee{contract.UniqueIDs, contract.FreshIDs}, "known-ids,calls-first"},
		{"absent", []contract.Guarantee{contract.NothingLate}, "known-ids,unique-ids,calls-first,fresh-ids"},
		{"all", l, "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := l.Without(tt.gs...).String(); got != tt.want {
				t.Errorf("Without(%v) = %q, want %q", tt.gs, got, tt.want)
			}
		})
	}
	if got := l.String(); got != "known-ids,unique-ids,calls-first,fresh-ids" {
		t.Errorf("Without changed the list: %q", got)
	}
}
