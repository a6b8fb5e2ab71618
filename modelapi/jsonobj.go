package modelapi

import (
	"bytes"
	"encoding/json"
)

// obj is a JSON object whose members keep their order, so that the
// bodies the server writes read like the real APIs' and are the same
// bytes every time.
type obj []member

type member struct {
	key   string
	value any
}

// o builds an obj from key, value pairs.
func o(kv ...any) obj {
	m := make(obj, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		m = append(m, member{kv[i].(string), kv[i+1]})
	}
	return m
}

// MarshalJSON implements json.Marshaler.
func (m obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, kv := range m {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(kv.key)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshal(kv.value)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal is json.Marshal without HTML escaping (the APIs send <, > and &
// as they are).
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}

// compactJSON compacts valid JSON (returning it unchanged otherwise).
func compactJSON(raw []byte) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
