package engineproto_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/toolsim/toolsim/engineproto"
)

// fakeMode names how the test binary, re-run as an engine, misbehaves.
const fakeEnv = "ENGINEPROTO_FAKE"

// recordEnv names a file where the reference fake writes what it read.
const recordEnv = "ENGINEPROTO_RECORD"

// runFake is the engine side when the test binary runs as one: the
// reference engine served correctly, or a misbehaving protocol speaker.
func runFake(mode string) {
	if mode == "reference" || mode == "reference-full" {
		var in io.Reader = os.Stdin
		if path := os.Getenv(recordEnv); path != "" { // keep what toolsim sent
			f, err := os.Create(path)
			if err != nil {
				os.Exit(2)
			}
			defer f.Close()
			in = io.TeeReader(os.Stdin, f)
		}
		opts := serveOpts
		opts.Full = mode == "reference-full"
		err := engineproto.Serve(in, os.Stdout, opts)
		if err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	events := 0
	for in.Scan() {
		var m engineproto.Message
		json.Unmarshal(in.Bytes(), &m)
		if m.Type == engineproto.TypeEvent {
			events++
		}
		misbehave(mode, &m, events, out)
		out.Flush()
	}
	os.Exit(0)
}

const emptyTimeline = `{"diagnostics":[],"format":"toolsim-timeline/1","items":[],"now":0}`
const oneTool = `{"diagnostics":[],"format":"toolsim-timeline/1","items":[{"kind":"tool","tool":{"id":"a","name":"grep","start_t":0,"status":"running"}}],"now":0}`

func misbehave(mode string, m *engineproto.Message, events int, out *bufio.Writer) {
	reply := func(format string, args ...any) { fmt.Fprintf(out, format+"\n", args...) }
	if m.Type == engineproto.TypeInit {
		proto := engineproto.Version
		if mode == "wrong-protocol" {
			proto = "toolsim-engine/0"
		}
		caps := `["timeline"]`
		if strings.HasPrefix(mode, "delta-") && mode != "delta-undeclared" {
			caps = `["timeline","delta"]`
		}
		if mode == "batch-bad-item" {
			caps = `["timeline","batch","delta"]`
		}
		if mode == "batch-hang" {
			caps = `["timeline","batch"]`
		}
		if mode == "snapshot-delta" {
			caps = `["timeline","delta","snapshot"]`
		}
		extra := ""
		switch mode {
		case "no-grouping":
			extra = `,"features":["tools","text"],"grouping":false`
		case "contract":
			extra = `,"contract":["executor","nothing-late"],"documented":["open-after-turn"],"by_design":["results-at-step-end"]`
		case "both-labels":
			extra = `,"documented":["open-after-turn"],"by_design":["open-after-turn"]`
		case "bad-contract":
			extra = `,"contract":["calls-frist"]`
		}
		reply(`{"type":"init_ok","id":%d,"protocol":%q,"capabilities":%s,"fields":[]%s}`, m.ID, proto, caps, extra)
		return
	}
	item := `{"kind":"user","text":"hi"}`
	switch {
	case mode == "delta-undeclared" && m.Type == engineproto.TypeEvent:
		reply(`{"type":"timeline","id":%d,"delta":{"len":1,"items":{"0":%s}}}`, m.ID, item)
	case mode == "delta-gap" && m.Type == engineproto.TypeEvent:
		reply(`{"type":"timeline","id":%d,"delta":{"len":2,"items":{"0":%s}}}`, m.ID, item)
	case mode == "delta-index" && m.Type == engineproto.TypeEvent:
		reply(`{"type":"timeline","id":%d,"delta":{"len":1,"items":{"01":%s}}}`, m.ID, item)
	case mode == "delta-item" && m.Type == engineproto.TypeEvent:
		reply(`{"type":"timeline","id":%d,"delta":{"len":1,"items":{"0":{"kind":"tool","tool":{"id":"a"}}}}}`, m.ID)
	case mode == "delta-both" && m.Type == engineproto.TypeEvent:
		reply(`{"type":"timeline","id":%d,"delta":{"len":0},"timeline":%s}`, m.ID, emptyTimeline)
	case mode == "delta-ok" && m.Type == engineproto.TypeEvent && events == 1:
		reply(`{"type":"timeline","id":%d,"delta":{"len":1,"items":{"0":%s},"diagnostics":[{"code":"unknown_id","id":"x","seq":1}],"now":7}}`, m.ID, item)
	case mode == "delta-ok" && m.Type == engineproto.TypeEvent:
		reply(`{"type":"timeline","id":%d,"delta":{"len":2,"items":{"1":%s},"diagnostics":[{"code":"late_done","id":"y","seq":2}]}}`, m.ID, item)
	case mode == "snapshot-delta" && m.Type == engineproto.TypeSnapshot:
		reply(`{"type":"timeline","id":%d,"delta":{"len":1}}`, m.ID)
	case mode == "batch-bad-item" && m.Type == engineproto.TypeBatch:
		// The first reply's item does not decode (a number for a kind);
		// the others change nothing.
		n := len(m.Events)
		if m.Finish {
			n++
		}
		for i := range n {
			items := `{}`
			if i == 0 {
				items = `{"0":{"kind":5}}`
			}
			reply(`{"type":"timeline","id":%d,"index":%d,"delta":{"len":1,"items":%s}}`, m.ID, i, items)
		}
	case mode == "batch-hang" && m.Type == engineproto.TypeBatch:
		// Two replies, then nothing: the third never comes.
		for i := range 2 {
			reply(`{"type":"timeline","id":%d,"index":%d,"timeline":%s}`, m.ID, i, emptyTimeline)
		}
		out.Flush()
		io.Copy(io.Discard, os.Stdin) // reads until killed
	case mode == "crash" && events == 2:
		fmt.Fprintln(os.Stderr, "panic: index out of range [3] with length 3")
		fmt.Fprintln(os.Stderr, "goroutine 1 [running]:")
		os.Exit(3)
	case mode == "hang" && events == 2:
		io.Copy(io.Discard, os.Stdin) // never answers: reads until killed
	case mode == "malformed" && events == 2:
		reply(`{"type":"timeline","id":%d,"timeline":`, m.ID)
	case mode == "extra" && events == 1:
		reply(`{"type":"timeline","id":%d,"timeline":%s}`, m.ID, oneTool)
		reply(`{"type":"timeline","id":%d,"timeline":%s}`, m.ID, oneTool)
	case mode == "huge" && events == 1:
		reply(`{"type":"timeline","id":%d,"timeline":%s,"pad":"%s"}`, m.ID, oneTool, strings.Repeat("x", engineproto.MaxReply))
	case m.Type == engineproto.TypeReset && mode == "ignore-reset":
		reply(`{"type":"timeline","id":%d,"timeline":%s}`, m.ID, oneTool)
	case m.Type == engineproto.TypeReset:
		reply(`{"type":"timeline","id":%d,"timeline":%s}`, m.ID, emptyTimeline)
	default:
		reply(`{"type":"timeline","id":%d,"timeline":%s}`, m.ID, oneTool)
	}
}
