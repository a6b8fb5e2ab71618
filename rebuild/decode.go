package rebuild

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/toolsim/toolsim/internal/jsonscan"
	"github.com/toolsim/toolsim/store"
)

// decoder reads record lines without reflection: one validating pass that
// splits the members, then a switch per member.
type decoder struct {
	members  []jsonscan.Member
	borrowed borrowed
	seq      int64 // the seq of the record being read (Record.Seq points here until retained)
}

// borrowed are the ordering members of the record being read, as slices
// of the line (no escapes). A record applied at once only reads them;
// one that is kept gets string copies (builder.retain).
type borrowed struct {
	ts, id, parent []byte
}

// borrow keeps an escape-free ts, id or parent as a slice of the line.
func (d *decoder) borrow(key string, val []byte) bool {
	if len(val) < 2 || val[0] != '"' || bytes.IndexByte(val, '\\') >= 0 {
		return false
	}
	inner := val[1 : len(val)-1]
	switch key {
	case "ts":
		d.borrowed.ts = inner
	case "id":
		d.borrowed.id = inner
	case "parent":
		d.borrowed.parent = inner
	default:
		return false
	}
	return true
}

// errUnknownMember marks a member the record version does not define.
var errUnknownMember = fmt.Errorf("not a member of a version %d record", store.RecordVersion)

// decode fills rec from a line. A syntax error comes back as err with
// syntax true (a torn line is one); any other error is a bad member.
// Members the version does not define are kept out of rec and listed in
// unknown.
func (d *decoder) decode(line []byte, rec *store.Record) (syntax bool, unknown []string, err error) {
	var serr *jsonscan.SyntaxError
	d.members, serr = jsonscan.Object(line, d.members[:0])
	if serr != nil {
		return true, nil, serr
	}
	if len(line) == 0 || line[jsonscan.SkipSpace(line, 0)] != '{' {
		return false, nil, fmt.Errorf("want a JSON object, got %s", jsonscan.Describe(line))
	}
	d.borrowed = borrowed{}
	for _, m := range d.members {
		key := m.Key[1 : len(m.Key)-1]
		if d.borrow(string(key), m.Val) {
			continue
		}
		if string(key) == "seq" {
			n, err := integer(m.Val)
			if err != nil {
				return false, nil, fmt.Errorf("member \"seq\": %w", err)
			}
			d.seq, rec.Seq = n, &d.seq
			continue
		}
		err := setMember(rec, string(key), m.Val)
		if err == errUnknownMember {
			unknown = append(unknown, string(key))
			continue
		}
		if err != nil {
			return false, nil, fmt.Errorf("member %q: %w", key, err)
		}
	}
	return false, unknown, nil
}

// setMember decodes one member into rec.
func setMember(rec *store.Record, key string, val []byte) error {
	if key == "type" {
		if t := knownType(val); t != "" {
			rec.Type = t // no allocation for the types this version defines
			return nil
		}
	}
	if p := stringMember(rec, key); p != nil {
		return str(p, val)
	}
	switch key {
	case "v":
		n, err := integer(val)
		rec.V = int(n)
		return err
	case "updates":
		n, err := integer(val)
		rec.Updates = int(n)
		return err
	case "seq":
		return optInt(&rec.Seq, val)
	case "end_seq":
		return optInt(&rec.EndSeq, val)
	case "duration_ms":
		return optInt(&rec.DurationMS, val)
	case "ok":
		b, err := boolean(val)
		rec.OK = &b
		return err
	case "interrupted":
		b, err := boolean(val)
		rec.Interrupted = b
		return err
	case "args", "details", "event":
		raw := append([]byte(nil), val...)
		switch key {
		case "args":
			rec.Args = raw
		case "details":
			rec.Details = raw
		default:
			rec.Event = raw
		}
		return nil
	}
	return errUnknownMember
}

// stringMember returns the string field a key names, or nil.
func stringMember(rec *store.Record, key string) *string {
	switch key {
	case "id":
		return &rec.ID
	case "parent":
		return &rec.Parent
	case "ts":
		return &rec.TS
	case "type":
		return &rec.Type
	case "role":
		return &rec.Role
	case "text":
		return &rec.Text
	case "call_id":
		return &rec.CallID
	case "name":
		return &rec.Name
	case "batch":
		return &rec.Batch
	case "parent_call":
		return &rec.ParentCall
	case "output":
		return &rec.Output
	case "error":
		return &rec.Error
	case "state":
		return &rec.State
	case "reason":
		return &rec.Reason
	case "message":
		return &rec.Message
	case "progress":
		return &rec.Progress
	case "end_ts":
		return &rec.EndTS
	case "end_parent":
		return &rec.EndParent
	}
	return nil
}

func str(dst *string, val []byte) error {
	s, ok := jsonscan.String(val)
	if !ok {
		return fmt.Errorf("want a string, got %s", jsonscan.Describe(val))
	}
	*dst = s
	return nil
}

func integer(val []byte) (int64, error) {
	n, err := strconv.ParseInt(string(val), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want an integer, got %s", jsonscan.Describe(val))
	}
	return n, nil
}

func optInt(dst **int64, val []byte) error {
	n, err := integer(val)
	*dst = &n
	return err
}

func boolean(val []byte) (bool, error) {
	switch string(val) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("want a boolean, got %s", jsonscan.Describe(val))
}

// recordTypes are the record types this version defines.
var recordTypes = []string{
	store.TypeTurnStart, store.TypeTurnEnd, store.TypeUserMessage, store.TypeAssistant,
	store.TypeThinking, store.TypeTextDelta, store.TypeThinkingDelta, store.TypeToolCall,
	store.TypeToolProgress, store.TypeToolResult, store.TypeToolLifecycle, store.TypePermission,
	store.TypeCancel, store.TypeError, store.TypeRawEvent,
}

// knownType returns the constant for a record type literal, or "".
func knownType(val []byte) string {
	if len(val) < 2 {
		return ""
	}
	for _, t := range recordTypes {
		if string(val[1:len(val)-1]) == t {
			return t
		}
	}
	return ""
}
