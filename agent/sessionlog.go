package agent

import (
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
)

// SessionLog reads the app's own record of its newest conversation
// (Profile.Log): its name (a path, or the export command) and its bytes.
func (a *App) SessionLog() (name string, data []byte, err error) {
	l := a.P.Log
	switch {
	case l.Export != nil:
		return l.Export(a)
	case l.Files == nil:
		return "", nil, fmt.Errorf("%s's profile says nothing of its session log", a.P.Name)
	}
	path, err := newestFile(filepath.Join(a.Env.Home, l.Dir), l.Files)
	if err != nil {
		return "", nil, err
	}
	data, err = os.ReadFile(path)
	return path, data, err
}

// newestFile is the most recently modified file under root whose path
// relative to root (forward slashes) match accepts.
func newestFile(root string, match func(rel string) bool) (string, error) {
	var best string
	var when time.Time
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if !match(filepath.ToSlash(rel)) {
			return nil
		}
		info, err := d.Info()
		if err == nil && (best == "" || info.ModTime().After(when)) {
			best, when = path, info.ModTime()
		}
		return err
	})
	if err == nil && best == "" {
		err = fmt.Errorf("no session log under %s", root)
	}
	return best, err
}

// exportTimeout bounds each command run reads the session log with (a
// database the running app holds locked must not hang the engine).
const exportTimeout = 30 * time.Second

// run runs the app's binary with args in its environment and workspace
// (no terminal), and returns what it printed on stdout.
func (a *App) run(args ...string) ([]byte, error) {
	l := a.launch
	if l == nil {
		return nil, errors.New("the app was never started")
	}
	ctx, cancel := context.WithTimeout(context.Background(), exportTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.bin, args...)
	cmd.Dir = a.Env.Work
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + a.Env.Home, "LANG=C.UTF-8"}, l.Env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %s", a.P.Bin, strings.Join(args, " "), err, bytes.TrimSpace(stderr.Bytes()))
	}
	return out, nil
}

// opencodeSession is an entry of `opencode session list --format json`.
type opencodeSession struct {
	ID      string `json:"id"`
	Updated int64  `json:"updated"`
}

// opencodeExport prints opencode's newest session: `opencode session
// list --format json` (newest first), then `opencode export ID`.
func opencodeExport(a *App) (string, []byte, error) {
	out, err := a.run("session", "list", "--format", "json")
	if err != nil {
		return "", nil, err
	}
	var sessions []opencodeSession
	if err := json.Unmarshal(out, &sessions); err != nil {
		return "", nil, fmt.Errorf("opencode session list --format json: %w", err)
	}
	if len(sessions) == 0 {
		return "", nil, errors.New("opencode session list: no session")
	}
	newest := slices.MaxFunc(sessions, func(x, y opencodeSession) int { return cmp.Compare(x.Updated, y.Updated) })
	data, err := a.run("export", newest.ID)
	return "opencode export " + newest.ID, data, err
}

// checkSessionLog is the session-log oracle, at the end of a scenario the
// app finished: its own record of the conversation is read
// (App.SessionLog), kept under Options.KeepLogs, and held by
// Options.CompareLog to the events acted out. A log that cannot be read,
// or that differs, is a BoundaryError of oracle "session-log". A scenario
// that typed no prompt, or ends with a turn in progress (the app may not
// have written it yet), is not checked.
func (e *Engine) checkSessionLog() error {
	a := e.app
	o := a.opts
	if (o.CompareLog == nil && o.KeepLogs == "") || e.turn.prompts == 0 || a.P.Busy(a.Term.Snapshot()) {
		return nil
	}
	name, data, err := a.SessionLog()
	if err != nil && o.CompareLog == nil {
		if o.Log != nil { // --keep-logs alone judges nothing: say it, go on
			fmt.Fprintf(o.Log, "toolsim-agent: keeping %s's session log: %v\n", a.P.Name, err)
		}
		return nil
	}
	if err != nil {
		return &BoundaryError{"session-log", fmt.Sprintf("the app's session log cannot be read: %v", err)}
	}
	if o.KeepLogs != "" {
		if err := keepLog(o.KeepLogs, a.P.Name, name, data, e.applied); err != nil {
			return err // toolsim's own trouble, not a finding: the engine's failure all the same
		}
	}
	if o.CompareLog == nil {
		return nil
	}
	if err := o.CompareLog(name, data, a.P.Log.Format, e.applied); err != nil {
		return &BoundaryError{"session-log", err.Error()}
	}
	return nil
}

// keepLog writes the session log and the events acted out into a
// directory of dir named after the app and the events' hash
// (claude-3f2a9c01d4e5): the same trace checked again lands in the same
// place, beside the repro toolsim saved of it.
func keepLog(dir, app, name string, data []byte, sent []event.Event) error {
	var trace bytes.Buffer
	w := event.NewWriter(&trace)
	for i := range sent {
		if err := w.Write(&sent[i]); err != nil {
			return fmt.Errorf("keeping %s's session log: event %d: %w", app, i+1, err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("keeping %s's session log: %w", app, err)
	}
	sum := sha256.Sum256(trace.Bytes())
	to := filepath.Join(dir, fmt.Sprintf("%s-%x", app, sum[:6]))
	if err := os.MkdirAll(to, 0o755); err != nil {
		return fmt.Errorf("keeping %s's session log: %w", app, err)
	}
	base := filepath.Base(name)
	if strings.HasPrefix(name, "opencode export ") {
		base = strings.TrimPrefix(name, "opencode export ") + ".json"
	}
	return errors.Join(os.WriteFile(filepath.Join(to, "sent.jsonl"), trace.Bytes(), 0o644),
		os.WriteFile(filepath.Join(to, base), data, 0o644))
}
