package handlers

import (
	"errors"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/scenario"
	"github.com/posterior-playground/playground/sim/wire"
)

// MaxPanels is the most methods one play page shows side by side.
const MaxPanels = 4

// uploadRE matches the data name POST /api/data hands out for a CSV upload.
var uploadRE = regexp.MustCompile(`^upload:[A-Za-z0-9_-]{1,64}$`)

// PanelConfig is one method on the play page.
type PanelConfig struct {
	Method   string
	Model    string         // as the link gives it; "" means the data set's default
	Given    sim.Controls   // the values the link sets
	Controls sim.Controls   // resolved: the spec's defaults overridden by Given
	Spec     sim.MethodSpec // for the model the panel will run
	Replay   *wire.Replay   // the run's state to replay to (METHOD.replay), or nil
	// Watch is a run to watch live instead of starting one (METHOD.watch,
	// a lecturer's "share live" link); read-only unless the session owns it.
	Watch string
}

// runIDRE matches a run id: 16 hex digits, after an instance's name.
var runIDRE = regexp.MustCompile(`^(?:[a-z0-9]{1,16}-)?[0-9a-f]{16}$`)

// PlayConfig is everything a play page's link holds: reloading the link
// reopens the same experiment.
type PlayConfig struct {
	Scenario string // slug, or ""
	Data     string
	Seed     uint64
	Panels   []PanelConfig
	Hide     []string // controls hidden by a classroom link: "control" or "method.control"
	Focus    []string // controls a scenario highlights, same form
	Present  bool     // presentation mode (present=1): no prose, larger plots and type
	// Pace is the equal-budget race's unit (pace=grads or cpu) of a link
	// made while the panels raced: the page's Play races them again by it.
	Pace engine.Unit
	// Edit is the data edited in the plot (edit=, dataedit.go): encoded,
	// checked against the data set when the page could load it.
	Edit string
}

// methodSource is the catalog as the pages see it, so tests can supply
// their own methods.
type methodSource struct {
	names func() []string
	new   func(name, model string) (sim.Method, error)
	// data loads a link's data set, so each panel's spec is fitted to it
	// (sim.SpecFor); nil, or a nil answer, gives the plain specs.
	data func(name string, seed uint64) *sim.Dataset
}

const defaultSeed = 1

// parsePlay reads and validates a play page's query. Every error is a
// *sim.FieldError naming the parameter and what it allows.
func parsePlay(q url.Values, src methodSource) (PlayConfig, error) {
	var c PlayConfig
	q = withScenarioDefaults(q)
	c.Data = single(q, "data")
	if c.Data == "" {
		c.Data = "gap"
	}
	if !uploadRE.MatchString(c.Data) && !slices.Contains(datasets.Names(), c.Data) {
		return c, &sim.FieldError{Field: "data", Message: fmt.Sprintf("unknown data set %q (allowed: %s, or upload:<id> from a CSV upload)", c.Data, strings.Join(datasets.Names(), ", "))}
	}
	c.Seed = defaultSeed
	if s := single(q, "seed"); s != "" {
		v, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return c, &sim.FieldError{Field: "seed", Message: fmt.Sprintf("%q is not a whole number in [0, %d]", s, uint64(1<<64-1))}
		}
		c.Seed = v
	}
	if s := single(q, "scenario"); s != "" {
		if _, ok := scenario.BySlug(s); !ok {
			return c, &sim.FieldError{Field: "scenario", Message: fmt.Sprintf("unknown scenario %q", s)}
		}
		c.Scenario = s
	}
	names, err := parseMethods(q, src)
	if err != nil {
		return c, err
	}
	var d *sim.Dataset
	if src.data != nil {
		d = src.data(c.Data, c.Seed)
	}
	for _, name := range names {
		p, err := parsePanel(q, name, c.Data, d, src)
		if err != nil {
			return c, err
		}
		c.Panels = append(c.Panels, p)
	}
	for key := range q {
		if err := checkKey(key, names, src); err != nil {
			return c, err
		}
	}
	if c.Hide, err = parseControlList(q, "hide", c.Panels); err != nil {
		return c, err
	}
	if c.Focus, err = parseControlList(q, "focus", c.Panels); err != nil {
		return c, err
	}
	if c.Present, err = parsePresent(q); err != nil {
		return c, err
	}
	if c.Pace, err = parsePace(q); err != nil {
		return c, err
	}
	if c.Edit, err = parseEdit(q, d); err != nil {
		return c, err
	}
	return c, nil
}

// withScenarioDefaults fills in a scenario's data, methods, seed and
// controls when a link names the scenario but neither its data nor its
// methods (a hand-typed /play?scenario=vi-vs-mcmc), so that the panels are
// the scenario's and not the default page under the scenario's title. A
// link that names data or methods means what it says.
func withScenarioDefaults(q url.Values) url.Values {
	slug := single(q, "scenario")
	if slug == "" || q.Has("data") || q.Has("methods") {
		return q
	}
	s, ok := scenario.BySlug(slug)
	if !ok {
		return q // reported as an unknown scenario
	}
	_, query, _ := strings.Cut(s.URL(), "?")
	def, err := url.ParseQuery(query)
	if err != nil {
		return q
	}
	out := maps.Clone(q)
	for k, v := range def {
		if !out.Has(k) {
			out[k] = v
		}
	}
	return out
}

// parseEdit reads edit=, the data edited in the plot, checking its
// encoding and, when d is known, the edited points against d as a data
// command would.
func parseEdit(q url.Values, d *sim.Dataset) (string, error) {
	s := single(q, "edit")
	if s == "" {
		return "", nil
	}
	if d == nil {
		_, err := decodeEdit("edit", s)
		return s, err
	}
	_, err := applyEdit("edit", s, d)
	return s, err
}

// single returns the parameter's value; repeats keep the last, as a browser
// form would send a changed value last.
func single(q url.Values, key string) string {
	v := q[key]
	if len(v) == 0 {
		return ""
	}
	return strings.TrimSpace(v[len(v)-1])
}

// list splits a parameter given as a comma list, repeated, or both.
func list(q url.Values, key string) []string {
	var out []string
	for _, v := range q[key] {
		for _, s := range strings.Split(v, ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
	}
	return out
}

func parseMethods(q url.Values, src methodSource) ([]string, error) {
	known := src.names()
	names := list(q, "methods")
	if _, given := q["methods"]; !given {
		for _, n := range []string{"mfvi", "gip"} {
			if slices.Contains(known, n) {
				names = append(names, n)
			}
		}
	}
	if len(names) < 1 || len(names) > MaxPanels {
		return nil, &sim.FieldError{Field: "methods", Message: fmt.Sprintf("choose 1 to %d methods, got %d (allowed: %s)", MaxPanels, len(names), strings.Join(known, ", "))}
	}
	for i, n := range names {
		if !slices.Contains(known, n) {
			return nil, &sim.FieldError{Field: "methods", Message: fmt.Sprintf("unknown method %q (allowed: %s)", n, strings.Join(known, ", "))}
		}
		if slices.Contains(names[:i], n) {
			return nil, &sim.FieldError{Field: "methods", Message: fmt.Sprintf("method %q is listed twice; each method gets one panel", n)}
		}
	}
	return names, nil
}

// parsePanel reads one method's model and controls ("gip.prior_scale=2"),
// against its spec fitted to d when d is known, as the run will check them.
func parsePanel(q url.Values, name, data string, d *sim.Dataset, src methodSource) (PanelConfig, error) {
	p := PanelConfig{Method: name, Model: single(q, name+".model"), Given: sim.Controls{}}
	m, err := src.new(name, p.Model)
	if err != nil {
		msg := err.Error()
		if fe, ok := errors.AsType[*sim.FieldError](err); ok {
			msg = fe.Message
		}
		return p, &sim.FieldError{Field: name + ".model", Message: msg}
	}
	if p.Model == "" { // show the spec of the model the run will use
		if dm := defaultModel(data); dm != "" && slices.Contains(m.Spec().Models, dm) {
			if m2, err := src.new(name, dm); err == nil {
				m = m2
			}
		}
	}
	p.Spec = sim.SpecFor(m, d)
	prefix := name + "."
	for key := range q {
		ctl, ok := strings.CutPrefix(key, prefix)
		if !ok || ctl == "model" {
			continue
		}
		if ctl == "replay" {
			if p.Replay, err = parseReplay(key, single(q, key), p.Spec); err != nil {
				return p, err
			}
			continue
		}
		if ctl == "watch" {
			if p.Watch = single(q, key); !runIDRE.MatchString(p.Watch) {
				return p, &sim.FieldError{Field: key, Message: fmt.Sprintf("%q is not a run id (16 hex digits, perhaps after an instance's name and a dash)", p.Watch)}
			}
			continue
		}
		spec, ok := p.Spec.Control(ctl)
		if !ok {
			return p, &sim.FieldError{Field: key, Message: fmt.Sprintf("unknown control of %s (allowed: %s)", name, strings.Join(p.Spec.ControlNames(), ", "))}
		}
		raw := single(q, key)
		if spec.Textual() {
			p.Given[ctl] = sim.Choice(raw)
			continue
		}
		v, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return p, &sim.FieldError{Field: key, Message: fmt.Sprintf("%q is not a number (allowed: [%g, %g])", raw, spec.Min, spec.Max)}
		}
		p.Given[ctl] = sim.Num(v)
	}
	if p.Watch != "" && p.Replay != nil {
		return p, &sim.FieldError{Field: prefix + "watch", Message: "watches a live run; it cannot also replay a link's state (give one of " + prefix + "watch and " + prefix + "replay)"}
	}
	p.Controls, err = p.Spec.Resolve(p.Given)
	if err != nil {
		return p, scoped(prefix, err)
	}
	return p, nil
}

// scoped names a method's control in full ("gip.prior_scale").
func scoped(prefix string, err error) error {
	if fe, ok := errors.AsType[*sim.FieldError](err); ok {
		return &sim.FieldError{Field: prefix + fe.Field, Message: fe.Message}
	}
	return err
}

// checkKey rejects parameters the page does not know, so a typo in a shared
// link is an error rather than silently ignored.
func checkKey(key string, methods []string, src methodSource) error {
	switch key {
	case "data", "methods", "seed", "scenario", "hide", "focus", "present", "pace", "edit":
		return nil
	case "": // "?=1": there is no name to report
		return &sim.FieldError{Field: "query", Message: "a parameter without a name (allowed: data, methods, seed, scenario, hide, focus, present, pace, edit, <method>.model, <method>.<control>, <method>.replay and <method>.watch)"}
	}
	if m, _, ok := strings.Cut(key, "."); ok {
		if slices.Contains(methods, m) {
			return nil // checked by parsePanel
		}
		if slices.Contains(src.names(), m) {
			return &sim.FieldError{Field: key, Message: fmt.Sprintf("sets a control of %s, which is not among methods=%s", m, strings.Join(methods, ","))}
		}
	}
	return &sim.FieldError{Field: key, Message: "unknown parameter (allowed: data, methods, seed, scenario, hide, focus, present, pace, edit, <method>.model, <method>.<control>, <method>.replay and <method>.watch)"}
}

// parsePresent reads present=: 1 opens the page in presentation mode, 0
// (or no parameter) does not.
func parsePresent(q url.Values) (bool, error) {
	if _, given := q["present"]; !given {
		return false, nil
	}
	switch v := single(q, "present"); v {
	case "0":
		return false, nil
	case "1":
		return true, nil
	default:
		return false, &sim.FieldError{Field: "present", Message: fmt.Sprintf("%q is not 0 or 1 (1: presentation mode)", v)}
	}
}

// parsePace reads pace=: the unit an equal-budget race paces the panels
// by (engine.ParseUnit: grads or cpu), or "" when the link has none.
func parsePace(q url.Values) (engine.Unit, error) {
	if _, given := q["pace"]; !given {
		return "", nil
	}
	return engine.ParseUnit("pace", single(q, "pace"))
}

// parseControlList reads hide= or focus=: controls named "control" (in every
// panel) or "method.control".
func parseControlList(q url.Values, key string, panels []PanelConfig) ([]string, error) {
	items := list(q, key)
	for _, it := range items {
		m, ctl, scoped := strings.Cut(it, ".")
		if !scoped {
			ctl, m = it, ""
		}
		found := false
		for _, p := range panels {
			if _, ok := p.Spec.Control(ctl); ok && (m == "" || m == p.Method) {
				found = true
			}
		}
		if !found {
			return nil, &sim.FieldError{Field: key, Message: fmt.Sprintf("%q names no control of the methods on this page", it)}
		}
	}
	return items, nil
}

// defaultModel is the built-in data set's default model, or "".
func defaultModel(data string) string {
	for _, in := range datasets.Infos() {
		if in.Name == data {
			return in.DefaultModel
		}
	}
	return ""
}

// listed reports whether a hide= or focus= list names the control of method.
func listed(items []string, method, control string) bool {
	return slices.Contains(items, control) || slices.Contains(items, method+"."+control)
}

// URL is the canonical link of the configuration.
func (c PlayConfig) URL() string {
	var q []string
	if c.Scenario != "" {
		q = append(q, "scenario="+queryEscape(c.Scenario))
	}
	methods := make([]string, len(c.Panels))
	for i, p := range c.Panels {
		methods[i] = p.Method
	}
	q = append(q, "data="+queryEscape(c.Data), "methods="+queryEscape(strings.Join(methods, ",")),
		"seed="+strconv.FormatUint(c.Seed, 10))
	for _, p := range c.Panels {
		if p.Model != "" {
			q = append(q, queryEscape(p.Method+".model")+"="+queryEscape(p.Model))
		}
		for _, ctl := range p.Spec.Controls { // spec order, stable links
			if v, ok := p.Given[ctl.Name]; ok {
				q = append(q, queryEscape(p.Method+"."+ctl.Name)+"="+queryEscape(v.String()))
			}
		}
		if p.Replay != nil {
			q = append(q, queryEscape(p.Method+".replay")+"="+queryEscape(formatReplay(p.Replay)))
		}
		if p.Watch != "" {
			q = append(q, queryEscape(p.Method+".watch")+"="+queryEscape(p.Watch))
		}
	}
	if len(c.Hide) > 0 {
		q = append(q, "hide="+queryEscape(strings.Join(c.Hide, ",")))
	}
	if len(c.Focus) > 0 {
		q = append(q, "focus="+queryEscape(strings.Join(c.Focus, ",")))
	}
	if c.Present {
		q = append(q, "present=1")
	}
	if c.Pace != "" {
		q = append(q, "pace="+string(c.Pace))
	}
	if c.Edit != "" {
		q = append(q, "edit="+c.Edit) // base64url: nothing to escape
	}
	return "/play?" + strings.Join(q, "&")
}

// queryEscape escapes a query value but keeps the characters that are legal
// in a query and make links readable (",", ":"), as scenario links do.
func queryEscape(s string) string {
	e := url.QueryEscape(s)
	return strings.NewReplacer("%2C", ",", "%3A", ":").Replace(e)
}
