package rebuild

import (
	"fmt"
	"strconv"

	"github.com/toolsim/toolsim/internal/jsonscan"
	"github.com/toolsim/toolsim/store"
)

// decoder reads record lines without reflection: one validating pass that
// splits the members, then a switch per member.
type decoder struct {
	members []jsonscan.Member
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
	for _, m := range d.members {
		key := m.Key[1 : len(m.Key)-1]
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
