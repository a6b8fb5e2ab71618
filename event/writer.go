package event

import (
	"bufio"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// Writer writes a trace in the canonical encoding, one line per event. It
// checks each event with [Validate] and the order of seq and t, so what it
// writes always reads back.
type Writer struct {
	w       *bufio.Writer
	buf     []byte
	js      JSON
	events  int
	lastSeq int64
	lastT   int64
}

// NewWriter returns a Writer writing to w. Call Flush when done.
func NewWriter(w io.Writer) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), js: StdJSON{}}
}

// WriteHeader writes the header line; it must come before any event.
func (w *Writer) WriteHeader(h *Header) error {
	if w.events > 0 {
		return fmt.Errorf("write header: events were already written")
	}
	if err := checkRaw(w.js, "meta", h.Meta, true); err != nil {
		return fmt.Errorf("write header: %w", err)
	}
	w.buf = append(AppendHeader(w.buf[:0], h), '\n')
	_, err := w.w.Write(w.buf)
	return err
}

// Write writes one event.
func (w *Writer) Write(ev *Event) error {
	if err := Validate(ev); err != nil {
		return fmt.Errorf("write event seq %d: %w", ev.Seq, err)
	}
	if w.events > 0 && (ev.Seq <= w.lastSeq || ev.T < w.lastT) {
		return fmt.Errorf("write event seq %d: out of order after seq %d t %d", ev.Seq, w.lastSeq, w.lastT)
	}
	w.events++
	w.lastSeq, w.lastT = ev.Seq, ev.T
	w.buf = append(AppendEvent(w.buf[:0], ev), '\n')
	_, err := w.w.Write(w.buf)
	return err
}

// Flush writes any buffered data.
func (w *Writer) Flush() error { return w.w.Flush() }

// WriteAll writes a whole trace: the header when h is not nil, then the
// events, then flushes. It stops at the first error.
func WriteAll(w io.Writer, h *Header, evs []Event) error {
	tw := NewWriter(w)
	if h != nil {
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
	}
	for i := range evs {
		if err := tw.Write(&evs[i]); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// Validate checks the fields of one event on its own: seq and t ranges, a
// non-empty kind, the enumerations, and that raw members are well-formed
// JSON (Args and Details objects). Order across events is the Reader's and
// Writer's business.
func Validate(ev *Event) error {
	switch {
	case ev.Seq < 1:
		return &DecodeError{Field: "seq", Reason: fmt.Sprintf("must be at least 1, got %d", ev.Seq)}
	case ev.T < 0:
		return &DecodeError{Field: "t", Reason: fmt.Sprintf("must be at least 0, got %d", ev.T)}
	case ev.Kind == "":
		return &DecodeError{Field: "kind", Reason: "must not be empty"}
	case ev.Kind == KindTurnStart && ev.Role != RoleAssistant && ev.Role != RoleUser:
		return &DecodeError{Field: "role", Reason: fmt.Sprintf("want assistant or user, got %q", ev.Role)}
	case ev.Kind == KindPermission && ev.State != PermissionAsked && ev.State != PermissionGranted && ev.State != PermissionDenied:
		return &DecodeError{Field: "state", Reason: fmt.Sprintf("want asked, granted or denied, got %q", ev.State)}
	case ev.DurationMS != nil && *ev.DurationMS < 0:
		return &DecodeError{Field: "duration_ms", Reason: "must not be negative"}
	}
	js := StdJSON{}
	if err := checkRaw(js, "args", ev.Args, true); err != nil {
		return err
	}
	if err := checkRaw(js, "details", ev.Details, true); err != nil {
		return err
	}
	for _, f := range ev.Extra {
		if err := checkRaw(js, f.Key, f.Value, false); err != nil {
			return err
		}
	}
	return nil
}

func checkRaw(js JSON, name string, raw []byte, object bool) error {
	if raw == nil {
		return nil
	}
	if err := js.Check(raw); err != nil {
		return &DecodeError{Field: name, Reason: "malformed JSON: " + err.Error(), Err: err}
	}
	if object && raw[0] != '{' {
		return &DecodeError{Field: name, Reason: "want an object, got " + jsonscan.Describe(raw)}
	}
	return nil
}
