package mcptools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The go-sdk (v1.8.0) keeps a request's JSON-RPC id in a context value
// under an unexported key (mcp/streamable.go idContextKey, set in
// mcp/server.go ServerSession.handle) and gives handlers and receiving
// middleware no accessor (go-sdk issue #1264). So the HTTP layer reads it:
// idHandler decodes each POSTed message with the SDK's own decoder, and
// writes the id of every tools/call into the request's params._meta under
// metaKeyID before the SDK sees the body. The tool handler reads it back
// from CallToolParamsRaw.Meta: the id travels with the very params the
// handler gets, so no guessing by tool name or arguments.
const metaKeyID = "dev.toolsim/jsonrpc-id"

// sessionHeader is the streamable HTTP session header.
const sessionHeader = "Mcp-Session-Id"

// maxBody bounds a POST body, as the SDK's own default does.
const maxBody = mcp.DefaultMaxRequestBodyBytes

// idHandler wraps the SDK's streamable HTTP handler: it stamps tools/call
// ids into _meta and remembers each call's HTTP request context, so the
// handler can tell when the client's connection for it goes away.
type idHandler struct {
	next     http.Handler
	carriers *carriers
	log      *logger
}

func (h *idHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		h.log.printf("http %s session=%s", r.Method, r.Header.Get(sessionHeader))
		h.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		status := http.StatusBadRequest
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			status = http.StatusRequestEntityTooLarge
		}
		http.Error(w, fmt.Sprintf("mcptools: reading the request body: %v", err), status)
		return
	}
	session := r.Header.Get(sessionHeader)
	body, ids := stampIDs(body, func(m *jsonrpc.Request) {
		h.log.printf("recv session=%s method=%s id=%s", session, m.Method, idText(m.ID))
	})
	for _, id := range ids {
		key := carrierKey{session: session, id: id}
		h.carriers.put(key, r.Context())
		defer h.carriers.forget(key, r.Context())
	}
	r2 := r.WithContext(r.Context())
	r2.Body = io.NopCloser(bytes.NewReader(body))
	r2.ContentLength = int64(len(body))
	r2.Header = r.Header.Clone()
	r2.Header.Set("Content-Length", strconv.Itoa(len(body)))
	h.next.ServeHTTP(w, r2)
}

// stampIDs returns body with the id of every tools/call request written
// into its params._meta[metaKeyID], and those ids. seen is called with every
// request or notification decoded. A body or message it cannot decode is
// passed on unchanged, for the SDK to reject.
func stampIDs(body []byte, seen func(*jsonrpc.Request)) ([]byte, []string) {
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(trimmed, &batch); err != nil {
			return body, nil
		}
		var ids []string
		changed := false
		for i, raw := range batch {
			out, id := stampOne(raw, seen)
			if id != "" {
				batch[i], changed = out, true
				ids = append(ids, id)
			}
		}
		if !changed {
			return body, nil
		}
		out, err := json.Marshal(batch)
		if err != nil {
			return body, nil
		}
		return out, ids
	}
	out, id := stampOne(body, seen)
	if id == "" {
		return body, nil
	}
	return out, []string{id}
}

// stampOne stamps one message. It returns the id it stamped, "" when the
// message is not a tools/call it could stamp.
func stampOne(raw []byte, seen func(*jsonrpc.Request)) ([]byte, string) {
	msg, err := jsonrpc.DecodeMessage(raw)
	if err != nil {
		return raw, ""
	}
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		return raw, ""
	}
	seen(req)
	if req.Method != "tools/call" || !req.ID.IsValid() {
		return raw, ""
	}
	id := idText(req.ID)
	params, err := withMetaString(req.Params, metaKeyID, id)
	if err != nil {
		return raw, ""
	}
	req.Params = params
	out, err := jsonrpc.EncodeMessage(req)
	if err != nil {
		return raw, ""
	}
	return out, id
}

// withMetaString sets params._meta[key] to the JSON string value.
func withMetaString(params json.RawMessage, key, value string) (json.RawMessage, error) {
	fields := map[string]json.RawMessage{}
	if len(params) > 0 && string(params) != "null" {
		if err := json.Unmarshal(params, &fields); err != nil {
			return nil, fmt.Errorf("params: %w", err)
		}
	}
	meta := map[string]json.RawMessage{}
	if m, ok := fields["_meta"]; ok && string(m) != "null" {
		if err := json.Unmarshal(m, &meta); err != nil {
			return nil, fmt.Errorf("params._meta: %w", err)
		}
	}
	v, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	meta[key] = v
	m, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	fields["_meta"] = m
	return json.Marshal(fields)
}

// idText is the ID form of a JSON-RPC id: decimal for a number, quoted
// for a string, "" for none.
func idText(id jsonrpc.ID) string {
	switch v := id.Raw().(type) {
	case nil:
		return ""
	case int64:
		return NumberID(v)
	case string:
		return StringID(v)
	default:
		return fmt.Sprint(v)
	}
}

// anyIDText is the ID form of an id decoded into an any, as the requestId
// of notifications/cancelled is.
func anyIDText(v any) string {
	if n, ok := v.(json.Number); ok {
		if i, err := n.Int64(); err == nil {
			return NumberID(i)
		}
		return n.String()
	}
	id, err := jsonrpc.MakeID(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return idText(id)
}

// carrierKey names an in-flight call: ids are unique per session only.
type carrierKey struct{ session, id string }

// carriers maps in-flight calls to the context of the HTTP request that
// carried them.
type carriers struct {
	mu sync.Mutex
	m  map[carrierKey]context.Context
}

func (c *carriers) put(k carrierKey, ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[carrierKey]context.Context{}
	}
	c.m[k] = ctx
}

// forget runs when the HTTP request that put k is done with. A call the
// SDK answered was taken by its handler already; one still here was never
// dispatched (the SDK rejected the request), unless the client went away
// first: then the handler may not have started yet, and must still find
// the ended context, so the entry stays for take.
func (c *carriers) forget(k carrierKey, ctx context.Context) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[k] == ctx && ctx.Err() == nil {
		delete(c.m, k)
	}
}

// take removes and returns the carrying request's context, or a context
// that never ends when unknown.
func (c *carriers) take(k carrierKey) context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ctx, ok := c.m[k]; ok {
		delete(c.m, k)
		return ctx
	}
	return context.Background()
}
