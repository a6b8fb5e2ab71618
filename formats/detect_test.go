package formats_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

func TestDetectParsesTheFirstValue(t *testing.T) {
	bom := string(formats.BOM)
	tests := []struct {
		name, head, want string
	}{
		{"compact header", `{"trace":"toolsim/v1"}` + "\n", formats.Canonical},
		{"json.dumps spacing", `{"trace": "toolsim/v1", "source": "sim"}` + "\n", formats.Canonical},
		{"pretty members on one line, tabs", "{\t\"source\" :\t\"x\" , \"trace\" : \"toolsim/v1\" }\n", formats.Canonical},
		{"byte order mark", bom + `{"trace":"toolsim/v1"}` + "\n", formats.Canonical},
		{"byte order mark and spacing", bom + `{"trace": "toolsim/v1"}` + "\r\n", formats.Canonical},
		{"event without header, spaced", `{"seq": 1, "t": 0, "kind": "user", "text": "hi"}` + "\n", formats.Canonical},
		{"event with members in another order", `{"kind":"turn_end","t":3,"seq":2}` + "\n", formats.Canonical},
		{"a header cut off by the head", `{"trace": "toolsim/v1", "meta": {"note": "` + strings.Repeat("x", 100), formats.Canonical},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			im, err := formats.Detect([]byte(tt.head))
			if err != nil {
				t.Fatal(err)
			}
			if im.Name() != tt.want {
				t.Errorf("detected %s, want %s", im.Name(), tt.want)
			}
		})
	}
}

func TestDetectRefusesLookalikes(t *testing.T) {
	for _, head := range []string{
		`{"note": "\"trace\":\"toolsim/v1\""}` + "\n", // the bytes, inside a string
		`{"trace": "other/v1"}` + "\n",
		`{"seq": 1}` + "\n",
	} {
		if im, err := formats.Detect([]byte(head)); err == nil && im.Name() == formats.Canonical {
			t.Errorf("%s: detected as canonical", head)
		}
	}
}

func TestDetectDeepNesting(t *testing.T) {
	deep := "\n\n" + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n"
	head := []byte(deep)[:min(len(deep), formats.HeadSize)]
	_, err := formats.Detect(head)
	var ne *formats.NestingError
	if !errors.As(err, &ne) {
		t.Fatalf("err = %v, want a *NestingError", err)
	}
	if ne.Line != 3 || !strings.Contains(err.Error(), "nesting too deep at line 3") {
		t.Errorf("err = %v (line %d), want nesting too deep at line 3", err, ne.Line)
	}
	// Brackets inside strings do not count; moderate nesting is fine.
	ok := `{"s": "` + strings.Repeat("[", 20000) + `", "trace": "toolsim/v1"}` + "\n"
	if im, err := formats.Detect([]byte(ok)); err != nil || im.Name() != formats.Canonical {
		t.Errorf("brackets in a string: %v, %v", im, err)
	}
}

func TestCanonicalImportSkipsBOM(t *testing.T) {
	in := string(formats.BOM) + `{"trace": "toolsim/v1"}` + "\n" + `{"seq": 1, "t": 0, "kind": "turn_start", "role": "user"}` + "\n"
	im, err := formats.ByName(formats.Canonical)
	if err != nil {
		t.Fatal(err)
	}
	res, err := im.Import(bytes.NewReader([]byte(in)), importer.Options{Name: "bom.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Events) != 1 || res.Header.Trace != "toolsim/v1" {
		t.Errorf("got header %+v and %d events", res.Header, len(res.Events))
	}
}
