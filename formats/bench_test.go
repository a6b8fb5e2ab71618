package formats_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/sim"
)

// benchSize is about how large each benchmark input is made.
const benchSize = 2 << 20

// benchInputs are hand-written excerpts from scenarios/, one per importer
// format, scaled up to about benchSize: line formats are repeated whole, a
// Gemini CLI document gets its messages repeated, a cassette its
// interactions; the canonical input is a long simulated trace.
var benchInputs = []struct{ format, scenario, file string }{
	{"acp", "import-acp-permission-rejected", "input.log"},
	{"claude-transcript", "import-claude-completion-order", "input.jsonl"},
	{"claude-stream-json", "import-claude-stream-denials", "input.jsonl"},
	{"codex-rollout", "import-codex-aborted-output", "input.jsonl"},
	{"codex-exec-json", "import-codex-exec-cut-off", "input.jsonl"},
	{"gemini-cli", "import-gemini-no-id", "input.json"},
	{"gemini-cli-jsonl", "import-gemini-session-jsonl", "session-2026-02-03T16-05-b7e2a9c4.jsonl"},
	{"anthropic-sse", "import-sse-cut-mid-arguments", "input.sse"},
	{"openai-chat-sse", "import-sse-same-tool-twice", "input.sse"},
	{"openai-responses-sse", "import-sse-responses-failed", "input.sse"},
	{"vcr-cassette", "import-vcr-results-by-id", "input.yaml"},
	{"vcr-cassette-gemini", "import-vcr-gemini", "input.yaml"},
	{"opencode-export", "import-opencode-cancel", "input.json"},
}

// BenchmarkImporters measures each importer's throughput (MB/s) on its
// scaled excerpt: go test ./formats -run '^$' -bench Importers.
func BenchmarkImporters(b *testing.B) {
	for _, in := range benchInputs {
		data := scaleInput(b, in.format, readScenarioFile(b, in.scenario, in.file))
		benchImport(b, in.format, data)
	}
	var canon bytes.Buffer
	sc := sim.Generate(1, sim.Options{Tools: 8, Turns: 2000})
	if err := event.WriteAll(&canon, &event.Header{Trace: event.Version}, sc.Events); err != nil {
		b.Fatal(err)
	}
	benchImport(b, formats.Canonical, canon.Bytes())
}

func benchImport(b *testing.B, name string, data []byte) {
	b.Run(name, func(b *testing.B) {
		im, err := formats.Detect(data[:min(len(data), formats.HeadSize)])
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			res, err := im.Import(bytes.NewReader(data), importer.Options{})
			if err != nil || len(res.Events) == 0 {
				b.Fatal(err)
			}
		}
	})
}

func readScenarioFile(b *testing.B, scenario, file string) []byte {
	ar, err := txtar.ParseFile(filepath.Join("..", "scenarios", scenario+".txtar"))
	if err != nil {
		b.Fatal(err)
	}
	for _, f := range ar.Files {
		if f.Name == file {
			return f.Data
		}
	}
	b.Fatalf("%s has no %s", scenario, file)
	return nil
}

// scaleInput repeats an excerpt's unit (the whole file, a document's
// messages, a cassette's interactions) until it is about benchSize.
func scaleInput(b *testing.B, format string, data []byte) []byte {
	switch format {
	case "gemini-cli":
		var doc map[string]json.RawMessage
		var msgs []json.RawMessage
		if json.Unmarshal(data, &doc) != nil || json.Unmarshal(doc["messages"], &msgs) != nil {
			b.Fatal("not a recording")
		}
		var all []json.RawMessage
		for len(all)*len(data)/len(msgs) < benchSize {
			all = append(all, msgs...)
		}
		list, _ := json.Marshal(all)
		var out bytes.Buffer
		out.WriteString(`{"sessionId": ` + string(doc["sessionId"]) + `, "projectHash": "p", "messages": `)
		if err := json.Indent(&out, list, "", "  "); err != nil {
			b.Fatal(err)
		}
		out.WriteString("}\n")
		return out.Bytes()
	case "opencode-export":
		var doc map[string]json.RawMessage
		var msgs []json.RawMessage
		if json.Unmarshal(data, &doc) != nil || json.Unmarshal(doc["messages"], &msgs) != nil {
			b.Fatal("not an opencode export")
		}
		var all []json.RawMessage
		for len(all)*len(data)/len(msgs) < benchSize {
			all = append(all, msgs...)
		}
		list, _ := json.MarshalIndent(all, "", "  ")
		return []byte(`{"info": ` + string(doc["info"]) + `, "messages": ` + string(list) + "}\n")
	case "vcr-cassette", "vcr-cassette-gemini":
		head, body, ok := bytes.Cut(data, []byte("interactions:\n"))
		if !ok {
			b.Fatal("no interactions")
		}
		out := append(append([]byte{}, head...), "interactions:\n"...)
		for len(out) < benchSize {
			out = append(out, body...)
		}
		return out
	}
	out := make([]byte, 0, benchSize+len(data))
	for len(out) < benchSize {
		out = append(out, data...)
	}
	return out
}
