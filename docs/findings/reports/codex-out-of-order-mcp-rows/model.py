#!/usr/bin/env python3
"""A scripted OpenAI Responses endpoint for the repro (stdlib only).

The first request that offers tools gets calls.sse: one response with two
calls of the MCP tool wait (slow: 4 s, fast: 1 s). Every later request
gets final.sse ("Done."). Requests without tools (titles) get final.sse.
"""
import http.server, json, os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
state = {"sent_calls": False}

class H(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        name = "final.sse"
        if body.get("tools") and not state["sent_calls"]:
            state["sent_calls"], name = True, "calls.sse"
        data = open(os.path.join(HERE, name), "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *a):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
