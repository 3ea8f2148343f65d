package templates

import (
	"strconv"
)

func u64(v uint64) string { return strconv.FormatUint(v, 10) }

func i64(v int64) string { return strconv.FormatInt(v, 10) }

// panelColumns is the grid's column count, the number of panels, so up to
// three sit side by side at 1280 px and four on a wider screen. It goes out
// as a data attribute that app.css's grid reads: a style attribute would
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

// presentClass is the play page's root class: "present" in presentation
// mode.
func presentClass(on bool) string {
	if on {
		return "present"
	}
	return ""
}

func boolString(b bool) string { return strconv.FormatBool(b) }

// focused are the controls a scenario puts in focus, shown under the plot.
func focused(cs []Control) []Control {
	var out []Control
	for _, c := range cs {
		if c.Focus && !c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// unfocused are the others, in the fold below (hidden ones included, so
// the script still finds them).
func unfocused(cs []Control) []Control {
	var out []Control
	for _, c := range cs {
		if !c.Focus || c.Hidden {
			out = append(out, c)
		}
	}
	return out
}

// controlsSummary labels the fold of the controls not in focus.
func controlsSummary(cs []Control) string {
	n := 0
	for _, c := range unfocused(cs) {
		if !c.Hidden {
			n++
		}
	}
	word := "controls"
	if n == 1 {
		word = "control"
	}
	if len(focused(cs)) > 0 {
		return "More " + word + " (" + strconv.Itoa(n) + ")"
	}
	return "Controls (" + strconv.Itoa(n) + ")"
}
