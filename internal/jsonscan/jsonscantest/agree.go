package jsonscantest

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Agree checks that fast, where it answers, decodes data as json.Unmarshal
// does into a fresh T: the input must then unmarshal without error, to
// the same value.
func Agree[T any](t testing.TB, data []byte, fast func([]byte, *T) bool) {
	t.Helper()
	var got, want T
	if !fast(data, &got) {
		return
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("fast %T decoder accepted %q; encoding/json: %v", got, data, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("fast %T decoder on %q:\n got %+v\nwant %+v", got, data, got, want)
	}
}
