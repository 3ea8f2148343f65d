package templates

import (
	"strconv"

	"github.com/a-h/templ"
)

func u64(v uint64) string { return strconv.FormatUint(v, 10) }

// panelColumns sets the grid's column count to the number of panels, so two
// panels sit side by side and four fill a wide screen.
func panelColumns(n int) templ.SafeCSS {
	if n < 1 {
		n = 1
	}
	return templ.SafeCSS("--panels: " + strconv.Itoa(n) + ";")
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
