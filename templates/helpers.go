package templates

import (
	"strconv"
)

func u64(v uint64) string { return strconv.FormatUint(v, 10) }

func i64(v int64) string { return strconv.FormatInt(v, 10) }

// panelColumns is the grid's column count, the number of panels, so two
// panels sit side by side and four fill a wide screen. It goes out as a
// data attribute that app.css maps to --panels: a style attribute would
// need 'unsafe-inline' in the Content-Security-Policy.
func panelColumns(n int) string {
	return strconv.Itoa(min(max(n, 1), 4))
}

func hiddenNote(n int) string {
	if n == 1 {
		return "1 control is hidden by this link."
	}
	return strconv.Itoa(n) + " controls are hidden by this link."
}

// visible drops the controls a classroom link hides.
func visible(cs []Control) []Control {
	var out []Control
	for _, c := range cs {
		if !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}
