package timeline

import "bytes"

// members is the ordered key list of one object, for duplicate, case and
// required-member checks.
type members struct {
	keys     []string
	required uint32 // bit i: keys[i] must be present
}

var (
	timelineKeys   = members{keys: []string{"diagnostics", "format", "items", "now"}, required: 1<<1 | 1<<2}
	itemKeys       = members{keys: []string{"batch", "interrupted", "kind", "level", "text", "tool", "tools"}, required: 1 << 2}
	toolKeys       = members{keys: []string{"batch", "children", "delegation", "duration_ms", "end_t", "error", "id", "meta", "name", "output", "parent", "start_t", "status", "summary", "update_seq"}, required: 1<<6 | 1<<8 | 1<<12}
	delegationKeys = members{keys: []string{"active_id", "mode", "steps"}}
	stepKeys       = members{keys: []string{"agent", "id", "preview", "status", "task"}}
	diagKeys       = members{keys: []string{"code", "id", "seq"}, required: 1<<0 | 1<<2}
)

// fields decodes an object whose members are ms.keys: set is called with
// the index of each known key, the cursor on its value. Unknown members are
// skipped; a key given twice, or differing from a known one only in case,
// is an error, and so is a missing required member.
func (d *Decoder) fields(ms *members, set func(k int) *DecodeError) *DecodeError {
	var seen uint32
	err := d.object(func(key []byte) *DecodeError {
		k := ms.index(key)
		if k < 0 {
			if known := ms.fold(key); known != "" {
				return d.fail("member %q: names are case-sensitive, want %q", key, known)
			}
			return d.skip()
		}
		if seen&(1<<k) != 0 {
			return d.fail("appears twice").in(ms.keys[k])
		}
		seen |= 1 << k
		if err := set(k); err != nil {
			return err.in(ms.keys[k])
		}
		return nil
	})
	if err != nil {
		return err
	}
	if missing := ms.required &^ seen; missing != 0 {
		for k := range ms.keys {
			if missing&(1<<k) != 0 {
				return d.fail("missing required member").in(ms.keys[k])
			}
		}
	}
	return nil
}

func (ms *members) index(key []byte) int {
	for k, name := range ms.keys {
		if string(key) == name {
			return k
		}
	}
	return -1
}

// fold returns the known key that key matches ignoring case (as
// encoding/json would), or "".
func (ms *members) fold(key []byte) string {
	for _, name := range ms.keys {
		if bytes.EqualFold(key, []byte(name)) {
			return name
		}
	}
	return ""
}

func (d *Decoder) timeline(tl *Timeline) *DecodeError {
	var format string
	err := d.fields(&timelineKeys, func(k int) *DecodeError {
		var err *DecodeError
		switch k {
		case 0:
			tl.Diagnostics, err = d.diagnostics()
		case 1:
			format, err = d.str()
			if err == nil && format != Format {
				err = d.fail("format %q, want %q", format, Format)
			}
		case 2:
			tl.Items, err = d.items()
		case 3:
			tl.Now, err = d.integer()
		}
		return err
	})
	if err != nil {
		return err
	}
	return nil
}

// items decodes a list of items (null is nil, [] an empty list).
func (d *Decoder) items() ([]*Item, *DecodeError) {
	if d.null() {
		return nil, nil
	}
	out := []*Item{}
	err := d.array(func(int) *DecodeError {
		it, err := d.item()
		out = append(out, it)
		return err
	})
	return out, err
}

func (d *Decoder) item() (*Item, *DecodeError) {
	it := &Item{}
	err := d.fields(&itemKeys, func(k int) *DecodeError {
		var err *DecodeError
		var s string
		switch k {
		case 0:
			it.Batch, err = d.str()
		case 1:
			it.Interrupted, err = d.boolean()
		case 2:
			s, err = d.str()
			it.Kind = itemKind(s)
		case 3:
			it.Level, err = d.str()
		case 4:
			it.Text, err = d.str()
		case 5:
			if !d.null() {
				it.Tool, err = d.tool()
			}
		case 6:
			it.Tools, err = d.tools()
		}
		return err
	})
	return it, err
}

// itemKind returns the constant for a known kind, so that it is shared.
func itemKind(s string) ItemKind {
	for _, k := range []ItemKind{ItemTool, ItemToolGroup, ItemAssistant, ItemUser, ItemThinking, ItemMetaTool, ItemNotice, ItemSeparator} {
		if string(k) == s {
			return k
		}
	}
	return ItemKind(s)
}

func (d *Decoder) tools() ([]*Tool, *DecodeError) {
	if d.null() {
		return nil, nil
	}
	out := []*Tool{}
	err := d.array(func(int) *DecodeError {
		t, err := d.tool()
		out = append(out, t)
		return err
	})
	return out, err
}

func (d *Decoder) tool() (*Tool, *DecodeError) {
	t := &Tool{}
	err := d.fields(&toolKeys, func(k int) *DecodeError {
		return d.toolMember(t, k)
	})
	return t, err
}

func (d *Decoder) toolMember(t *Tool, k int) *DecodeError {
	var err *DecodeError
	var n int64
	switch k {
	case 0:
		t.Batch, err = d.str()
	case 1:
		t.Children, err = d.items()
	case 2:
		if !d.null() {
			t.Delegation, err = d.delegation()
		}
	case 3:
		t.DurationMS, err = d.integer()
	case 4:
		t.EndT, err = d.integer()
	case 5:
		t.Error, err = d.str()
	case 6:
		t.ID, err = d.str()
	case 7:
		t.Meta, err = d.boolean()
	case 8:
		t.Name, err = d.str()
	case 9:
		t.Output, err = d.str()
	case 10:
		t.Parent, err = d.str()
	case 11:
		t.StartT, err = d.integer()
	case 12:
		var s string
		s, err = d.str()
		t.Status = status(s)
	case 13:
		t.Summary, err = d.str()
	case 14:
		n, err = d.integer()
		t.UpdateSeq = int(n)
	}
	return err
}

// status returns the constant for a known status, so that it is shared.
func status(s string) Status {
	for _, st := range []Status{StatusRunning, StatusOK, StatusPending, StatusFailed, StatusInterrupted, StatusDenied} {
		if string(st) == s {
			return st
		}
	}
	return Status(s)
}

func (d *Decoder) delegation() (*Delegation, *DecodeError) {
	del := &Delegation{}
	err := d.fields(&delegationKeys, func(k int) *DecodeError {
		var err *DecodeError
		switch k {
		case 0:
			del.ActiveID, err = d.str()
		case 1:
			del.Mode, err = d.str()
		case 2:
			if d.null() {
				return nil
			}
			del.Steps = []Step{}
			err = d.array(func(int) *DecodeError {
				del.Steps = append(del.Steps, Step{})
				return d.step(&del.Steps[len(del.Steps)-1])
			})
		}
		return err
	})
	return del, err
}

func (d *Decoder) step(s *Step) *DecodeError {
	return d.fields(&stepKeys, func(k int) *DecodeError {
		var err *DecodeError
		switch k {
		case 0:
			s.Agent, err = d.str()
		case 1:
			s.ID, err = d.str()
		case 2:
			s.Preview, err = d.str()
		case 3:
			s.Status, err = d.str()
		case 4:
			s.Task, err = d.str()
		}
		return err
	})
}

// diagnostics decodes a list of diagnostics (null is nil).
func (d *Decoder) diagnostics() ([]Diagnostic, *DecodeError) {
	if d.null() {
		return nil, nil
	}
	out := []Diagnostic{}
	err := d.array(func(int) *DecodeError {
		out = append(out, Diagnostic{})
		diag := &out[len(out)-1]
		return d.fields(&diagKeys, func(k int) *DecodeError {
			var err *DecodeError
			switch k {
			case 0:
				diag.Code, err = d.str()
			case 1:
				diag.ID, err = d.str()
			case 2:
				diag.Seq, err = d.integer()
			}
			return err
		})
	})
	return out, err
}

// skip consumes any JSON value, checking its syntax.
func (d *Decoder) skip() *DecodeError {
	if d.i >= len(d.b) {
		return d.fail("unexpected end of input")
	}
	switch c := d.b[d.i]; {
	case c == '{':
		return d.object(func([]byte) *DecodeError { return d.skip() })
	case c == '[':
		return d.skipArray()
	case c == '"':
		_, err := d.rawString()
		return err
	case c == '-' || c >= '0' && c <= '9':
		return d.number()
	case d.null():
		return nil
	}
	_, err := d.boolean()
	return err
}

func (d *Decoder) skipArray() *DecodeError {
	if d.depth++; d.depth > maxDepth {
		return d.fail("nested too deeply")
	}
	d.i++
	d.space()
	if d.i < len(d.b) && d.b[d.i] == ']' {
		d.i++
		d.depth--
		return nil
	}
	for {
		if err := d.skip(); err != nil {
			return err
		}
		d.space()
		if d.i < len(d.b) && d.b[d.i] == ',' {
			d.i++
			d.space()
			continue
		}
		if d.i < len(d.b) && d.b[d.i] == ']' {
			d.i++
			d.depth--
			return nil
		}
		return d.fail("want ',' or ']' after an element, got %s", d.describe())
	}
}

// number consumes a JSON number (RFC 8259 grammar).
func (d *Decoder) number() *DecodeError {
	b := d.b
	i := d.i
	if b[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		return i - start
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case digits() == 0:
		d.i = i
		return d.fail("malformed number")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if digits() == 0 {
			d.i = i
			return d.fail("malformed number")
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if digits() == 0 {
			d.i = i
			return d.fail("malformed number")
		}
	}
	d.i = i
	return nil
}
