package event

// LineDecoder decodes events one JSON object at a time, for callers that
// hold each event's bytes already (a protocol message carries them in an
// array) rather than a trace to read. It checks each object as a [Reader]
// checks a line, without the order checks between lines. The zero value is
// ready; it is not safe for concurrent use. Strings of decoded events are
// copied out of the input.
type LineDecoder struct {
	dec   decoder
	ready bool
}

// Decode decodes one event object into ev. Errors are *DecodeError values
// naming the field at fault (Line is 0).
func (d *LineDecoder) Decode(line []byte, ev *Event) error {
	if !d.ready {
		d.dec.js, d.ready = StdJSON{}, true
	}
	isHeader, err := d.dec.parseLine(line)
	if err != nil {
		return err
	}
	if isHeader {
		return lineError("trace", "a trace header is not an event")
	}
	return d.dec.decodeEvent(ev)
}
