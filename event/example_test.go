package event_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// A trace is JSONL: an optional header line, then one event per line.
// ReadAll decodes it whole; WriteAll writes it back in the canonical
// encoding (compact JSON, fields in a fixed order, unknown fields kept).
func Example() {
	const trace = `{"trace":"toolsim/v1","source":"example"}
{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":5,"kind":"tool_start","id":"t1","name":"Read","args":{ "path": "main.go" }}
{"seq":3,"t":40,"kind":"tool_done","id":"t1","ok":true,"output":"package main","x_vendor":1}
{"seq":4,"t":41,"kind":"turn_end"}
`
	h, evs, err := event.ReadAll(strings.NewReader(trace), event.ReaderOptions{Name: "example.jsonl"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("source:", h.Source)
	for _, ev := range evs {
		fmt.Printf("%d %s%s\n", ev.Seq, ev.Kind, idSuffix(ev.ID))
	}
	if err := event.WriteAll(os.Stdout, h, evs); err != nil {
		fmt.Println(err)
	}
	// Output:
	// source: example
	// 1 turn_start
	// 2 tool_start t1
	// 3 tool_done t1
	// 4 turn_end
	// {"trace":"toolsim/v1","source":"example"}
	// {"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
	// {"seq":2,"t":5,"kind":"tool_start","id":"t1","name":"Read","args":{"path":"main.go"}}
	// {"seq":3,"t":40,"kind":"tool_done","id":"t1","output":"package main","ok":true,"x_vendor":1}
	// {"seq":4,"t":41,"kind":"turn_end"}
}

// A Reader streams a trace one event at a time. A bad line is a
// *DecodeError naming the line and the field; the reader moves on, so every
// bad line can be listed.
func ExampleReader() {
	const trace = `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":3,"kind":"tool_start","name":"Read"}
{"seq":3,"t":4,"kind":"turn_end"}
`
	r := event.NewReader(strings.NewReader(trace), event.ReaderOptions{Name: "bad.jsonl"})
	var ev event.Event
	for {
		err := r.Next(&ev)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println("error:", err)
			continue
		}
		fmt.Println("event:", ev.Seq, ev.Kind)
	}
	// Output:
	// event: 1 turn_start
	// error: bad.jsonl:line 2: field "id": missing required field for kind "tool_start"
	// event: 3 turn_end
}

// A Writer checks every event it writes (Validate, and the order of seq
// and t), so what it writes always reads back.
func ExampleWriter() {
	w := event.NewWriter(os.Stdout)
	_ = w.Write(&event.Event{Seq: 1, T: 0, Kind: event.KindUser, Text: "hi"})
	if err := w.Write(&event.Event{Seq: 1, T: 2, Kind: event.KindText, Text: "again"}); err != nil {
		fmt.Println("error:", err)
	}
	_ = w.Flush()
	// Output:
	// error: write event seq 1: out of order after seq 1 t 0
	// {"seq":1,"t":0,"kind":"user","text":"hi"}
}

func idSuffix(id string) string {
	if id == "" {
		return ""
	}
	return " " + id
}
