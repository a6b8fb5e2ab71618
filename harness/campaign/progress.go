package campaign

import (
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// progress draws a bar on a terminal, else a line every 10%.
type progress struct {
	w        io.Writer
	terminal bool
	last     int
	open     bool // a bar is drawn and its line not ended
}

// end ends the bar's line, if one is drawn.
func (p *progress) end() {
	if p.open {
		fmt.Fprintln(p.w)
		p.open = false
	}
}

// ShowProgress makes the run draw its progress on w: a bar when w is a
// terminal, else a line every tenth of the seeds (none for a run bounded
// only by time). It returns what ends the bar's line: call it when the run
// is over, before printing anything else.
func (c *Campaign) ShowProgress(w io.Writer) (end func()) {
	p := newProgress(w)
	c.Progress = p.update
	return p.end
}

func newProgress(w io.Writer) *progress {
	p := &progress{w: w, last: -1}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal = true
		}
	}
	return p
}

func (p *progress) update(done, total, failures int) {
	unbounded := total >= math.MaxInt32
	if p.terminal {
		if done%50 != 0 && done != total {
			return
		}
		p.open = true
		if unbounded {
			fmt.Fprintf(p.w, "\r%d scenarios, %d failing", done, failures)
			return
		}
		const width = 30
		fill := width * done / max(total, 1)
		fmt.Fprintf(p.w, "\r[%s%s] %d/%d, %d failing", strings.Repeat("█", fill), strings.Repeat("·", width-fill), done, total, failures)
		return
	}
	if unbounded {
		return
	}
	if tenth := 10 * done / max(total, 1); tenth != p.last && tenth > 0 {
		p.last = tenth
		fmt.Fprintf(p.w, "progress: %d/%d scenarios, %d failing\n", done, total, failures)
	}
}
