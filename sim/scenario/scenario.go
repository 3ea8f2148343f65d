package scenario

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Scenario is a preset experiment of the home page's gallery: a data set,
// one to four methods and control values, written as data so a new one is a
// new entry in All.
type Scenario struct {
	Slug        string   `json:"slug"`
	Name        string   `json:"name"`
	Summary     string   `json:"summary"`          // one line for the gallery card
	Description string   `json:"description"`      // a paragraph on the play page: what to look at
	Note        string   `json:"note,omitempty"`   // what a part of the page costs or needs (a sweep card's minutes)
	Data        string   `json:"data,omitempty"`   // the data set; empty on a 2-D target
	Target      string   `json:"target,omitempty"` // a 2-D target (the gallery page's scenarios, OnTargets); empty on data
	Methods     []string `json:"methods"`          // the panels' methods, in order
	Seed        uint64   `json:"seed"`             // the page's seed, every panel's run's
	// Controls are the methods' controls of a scenario on data,
	// "method.control" → value.
	Controls map[string]string `json:"controls,omitempty"`
	// TargetControls are the target's controls, control → value; Panels
	// the panels of a scenario on a target (targets.go).
	TargetControls map[string]string `json:"target_controls,omitempty"`
	Panels         []Panel           `json:"panels,omitempty"`
	Hide           []string          `json:"hide,omitempty"`  // controls hidden on the page ("method.control" or "control")
	Focus          []string          `json:"focus,omitempty"` // controls highlighted on the page
	Sweep          *Sweep            `json:"sweep,omitempty"` // a sweep card on the page, or nil
	// Claim is what the scenario's picture teaches, checked (claims.go).
	Claim *Claim `json:"claim,omitempty"`
}

// Sweep is a scenario's sweep, as the CLI's --param and --values: the
// play page shows a sweep card that starts it with POST /api/sweeps on the
// page's data set and seed. Zero numbers take the browser's defaults.
type Sweep struct {
	Method      string `json:"method"`
	Param       string `json:"param"`
	Values      string `json:"values"`
	Steps       int    `json:"steps,omitempty"`
	EvalReps    int    `json:"eval_reps,omitempty"`
	IWBOSamples int    `json:"iwbo_samples,omitempty"`
	Seeds       int    `json:"seeds,omitempty"`
}

// BySlug returns the scenario with the given slug.
func BySlug(slug string) (Scenario, bool) {
	for _, s := range All() {
		if s.Slug == slug {
			return s, true
		}
	}
	return Scenario{}, false
}

// URL returns the play page's link for the scenario, or the gallery
// page's for a scenario on a target.
func (s Scenario) URL() string {
	if s.OnTarget() {
		return s.galleryURL()
	}
	q := []string{
		"scenario=" + queryEscape(s.Slug),
		"data=" + queryEscape(s.Data),
		"methods=" + queryEscape(strings.Join(s.Methods, ",")),
		"seed=" + strconv.FormatUint(s.Seed, 10),
	}
	for _, k := range slices.Sorted(maps.Keys(s.Controls)) {
		q = append(q, queryEscape(k)+"="+queryEscape(s.Controls[k]))
	}
	if len(s.Hide) > 0 {
		q = append(q, "hide="+queryEscape(strings.Join(s.Hide, ",")))
	}
	if len(s.Focus) > 0 {
		q = append(q, "focus="+queryEscape(strings.Join(s.Focus, ",")))
	}
	return "/play?" + strings.Join(q, "&")
}

// queryEscape escapes a query value but keeps the characters that are legal
// in a query and make links readable (",", ":").
func queryEscape(s string) string {
	e := url.QueryEscape(s)
	return strings.NewReplacer("%2C", ",", "%3A", ":").Replace(e)
}
