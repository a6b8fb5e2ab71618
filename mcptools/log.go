package mcptools

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
)

// logger writes one line per event to Options.Log; a nil logger or writer
// drops everything. Lines carry no timestamps.
type logger struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *logger) printf(format string, args ...any) {
	if l == nil || l.w == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "mcptools: "+format+"\n", args...)
}

// Write lets the SDK's slog output share the writer and its lock.
func (l *logger) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// slogger is the SDK's logger: the same writer, no time attribute, or nil
// (the SDK then discards) without a writer.
func (l *logger) slogger() *slog.Logger {
	if l == nil || l.w == nil {
		return nil
	}
	h := slog.NewTextHandler(l, &slog.HandlerOptions{
		Level: slog.LevelInfo,
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	})
	return slog.New(prefixHandler{h})
}

// prefixHandler marks the SDK's lines as such.
type prefixHandler struct{ slog.Handler }

func (p prefixHandler) Handle(ctx context.Context, r slog.Record) error {
	r.Message = "go-sdk: " + r.Message
	return p.Handler.Handle(ctx, r)
}

func (p prefixHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return prefixHandler{p.Handler.WithAttrs(as)}
}

func (p prefixHandler) WithGroup(name string) slog.Handler {
	return prefixHandler{p.Handler.WithGroup(name)}
}
