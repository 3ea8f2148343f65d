package cli

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress draws a bar on a terminal, and a line per tenth otherwise.
type progress struct {
	w        io.Writer
	unit     string
	terminal bool
	start    time.Time
	last     int
}

func newProgress(w io.Writer, unit string) *progress {
	p := &progress{w: w, unit: unit, start: time.Now(), last: -1}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil {
			p.terminal = st.Mode()&os.ModeCharDevice != 0
		}
	}
	return p
}

func (p *progress) update(done, total int) {
	if total <= 0 {
		return
	}
	pct := 100 * done / total
	if p.terminal {
		const width = 30
		fill := width * done / total
		fmt.Fprintf(p.w, "\r[%s%s] %3d%% %d/%d %s %s", strings.Repeat("#", fill), strings.Repeat(" ", width-fill),
			pct, done, total, p.unit, time.Since(p.start).Round(100*time.Millisecond))
		return
	}
	if pct/10 != p.last/10 {
		fmt.Fprintf(p.w, "progress: %d%% (%d/%d %s)\n", pct, done, total, p.unit)
	}
	p.last = pct
}

func (p *progress) finish() {
	if p.terminal {
		fmt.Fprintln(p.w)
	}
}
