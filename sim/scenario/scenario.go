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
	Slug        string
	Name        string
	Summary     string // one line for the gallery card
	Description string // a paragraph on the play page: what to look at
	Note        string // what a part of the page costs or needs (a sweep card's minutes)
	Data        string
	Methods     []string
	Seed        uint64
	Controls    map[string]string // "method.control" → value
	Hide        []string          // controls hidden on the page ("method.control" or "control")
	Focus       []string          // controls highlighted on the page
	Sweep       *Sweep            // a sweep card on the page, or nil
	// Claim is what the scenario's picture teaches, checked (claims.go).
	Claim *Claim
}

// Sweep is a scenario's sweep, as the CLI's --param and --values: the
// play page shows a sweep card that starts it with POST /api/sweeps on the
// page's data set and seed. Zero numbers take the browser's defaults.
type Sweep struct {
	Method      string
	Param       string
	Values      string
	Steps       int
	EvalReps    int
	IWBOSamples int
	Seeds       int
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

// URL returns the play page's link for the scenario.
func (s Scenario) URL() string {
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
