package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// Options say what Run prints.
type Options struct {
	Width  int  // rendering width in cells
	Output bool // output snippets under tools
	Frames bool // the render after every event, under a line naming it
	JSON   bool // the timeline JSON instead of renders
	Finish bool // apply the end-of-stream rule at the end
	Live   bool // render the end as a live view would, not as an ended input
	// SyntheticClock hides durations: the trace's clock counts events.
	SyntheticClock bool
}

// Source yields a trace's events; Next returns io.EOF after the last.
type Source interface{ Next(*event.Event) error }

// Run feeds src to eng and prints to out what opts ask for, then to diag
// the engine's diagnostics (at most 50) and the tools still live at the
// end. It returns the trace's error (the events before it were applied)
// or the engine's.
func Run(out, diag io.Writer, src Source, eng engineproto.Engine, opts Options) error {
	ropts := render.Options{Width: opts.Width, Output: opts.Output, SyntheticClock: opts.SyntheticClock}
	inc := render.NewIncremental(ropts)
	last := ""
	var ev event.Event
	for {
		err := src.Next(&ev)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		eng.Apply(&ev)
		if err := engineErr(eng); err != nil {
			return err
		}
		if opts.Frames {
			last = frame(out, fmt.Sprintf("--- seq %d %s t=%d", ev.Seq, ev.Kind, ev.T), eng.Timeline(), inc, opts.JSON)
		}
	}
	if opts.Finish {
		eng.Finish()
		if err := engineErr(eng); err != nil {
			return err
		}
	}
	end(out, eng.Timeline(), inc, ropts, opts, last)
	writeLeft(diag, eng)
	return nil
}

// engineErr returns an external engine's failure, if any.
func engineErr(eng engineproto.Engine) error {
	if e, ok := eng.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// end prints the final output. The final render (not the frames) shows
// tools still running as unfinished: the input is over.
func end(out io.Writer, tl *timeline.Timeline, inc *render.Incremental, ropts render.Options, opts Options, last string) {
	switch {
	case opts.Frames && opts.Finish && opts.JSON:
		frame(out, "", tl, inc, true)
	case opts.Frames && opts.Finish:
		if final := inc.Render(tl); final != last {
			frame(out, "--- end of trace (--finish)", tl, inc, false)
		}
	case opts.Frames:
	default:
		ropts.Ended = !opts.Live
		WriteEnd(out, tl, ropts, opts.JSON)
	}
}

// maxListed bounds the lines a list prints to a terminal.
const maxListed = 50

// writeLeft prints the diagnostics and what is still open at the end of
// the trace.
func writeLeft(w io.Writer, eng engineproto.Engine) {
	tl := eng.Timeline()
	for i, d := range tl.Diagnostics {
		if i == maxListed {
			fmt.Fprintf(w, "… and %d more diagnostics (--json lists them all)\n", len(tl.Diagnostics)-maxListed)
			break
		}
		fmt.Fprintf(w, "seq %d: %s id=%s\n", d.Seq, d.Code, d.ID)
	}
	live := liveTools(tl)
	waiting := 0
	if w, ok := eng.(interface{ Waiting() int }); ok {
		waiting = w.Waiting()
	}
	if len(live) > 0 || waiting > 0 {
		fmt.Fprintf(w, "end of trace: %d tools still live %s, %d results waiting for their start (--finish resolves them)\n", len(live), capList(live, 10), waiting)
	}
}

// liveTools lists the ids of the tools a timeline shows live.
func liveTools(tl *timeline.Timeline) []string {
	var ids []string
	for _, it := range tl.Items {
		it.EachTool(func(t *timeline.Tool) bool {
			if !t.Status.Terminal() {
				ids = append(ids, t.ID)
			}
			return true
		})
	}
	return ids
}

// capList writes at most n items of a list, then how many more there are.
func capList(items []string, n int) string {
	if len(items) <= n {
		return "[" + strings.Join(items, " ") + "]"
	}
	return fmt.Sprintf("[%s … and %d more]", strings.Join(items[:n], " "), len(items)-n)
}

// WriteEnd writes a final timeline: its render, or its indented JSON.
func WriteEnd(w io.Writer, tl *timeline.Timeline, opts render.Options, asJSON bool) {
	if asJSON {
		out, _ := json.MarshalIndent(tl, "", "  ")
		fmt.Fprintf(w, "%s\n", out)
		return
	}
	io.WriteString(w, render.Render(tl, opts))
}

// frame prints one frame and returns its render (empty in JSON mode).
func frame(w io.Writer, title string, tl *timeline.Timeline, inc *render.Incremental, asJSON bool) string {
	if asJSON {
		out, _ := json.Marshal(tl)
		fmt.Fprintf(w, "%s\n", out)
		return ""
	}
	text := inc.Render(tl)
	fmt.Fprintf(w, "%s\n%s\n", title, text)
	return text
}
