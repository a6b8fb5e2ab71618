#!/usr/bin/env python3
"""A scripted OpenAI Chat Completions endpoint for the repro (stdlib only).

The first request that offers tools gets one streamed response with two
tool calls that share the id call_1: repro_grep, then repro_read. Every
other request gets the text "Done." Each request that offers tools is
logged to stderr with the tool calls and tool results its history holds.
"""
import http.server, json, sys

state = {"sent_calls": False, "n": 0}

def chunk(delta, finish=None):
    c = {"id": "chatcmpl-repro", "object": "chat.completion.chunk", "created": 0, "model": "repro-model",
         "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return "data: " + json.dumps(c) + "\n\n"

def call(index, name, args):
    return {"index": index, "id": "call_1", "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}

class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        msgs = body.get("messages", [])
        if body.get("tools"):
            state["n"] += 1
            calls = [c["id"] + " " + c["function"]["name"] for m in msgs for c in (m.get("tool_calls") or [])]
            results = [m.get("tool_call_id") for m in msgs if m.get("role") == "tool"]
            print("model request %d: tool calls in its history %s, tool results %s" % (state["n"], calls, results), file=sys.stderr, flush=True)
        if body.get("tools") and not state["sent_calls"]:
            state["sent_calls"] = True
            out = chunk({"role": "assistant", "tool_calls": [call(0, "repro_grep", {"path": "a.go"})]})
            out += chunk({"tool_calls": [call(1, "repro_read", {"path": "b.go"})]})
            out += chunk({}, "tool_calls")
        else:
            out = chunk({"role": "assistant", "content": "Done."}) + chunk({}, "stop")
        data = (out + "data: [DONE]\n\n").encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
