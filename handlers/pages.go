package handlers

import (
	"errors"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/a-h/templ"
	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/scenario"
	"github.com/posterior-playground/playground/templates"
)

// Pages serves the HTML pages: the scenario gallery and the play page.
type Pages struct {
	log     *slog.Logger
	methods methodSource
}

// NewPages returns the page handlers, offering the catalog's methods with
// their controls' ranges fitted to each link's data: a built-in set, or
// one from uploads (nil: built-in sets only).
func NewPages(log *slog.Logger, uploads *Uploads) *Pages {
	return &Pages{log: log, methods: methodSource{names: catalog.MethodNames, new: catalog.NewMethod,
		data: func(name string, seed uint64) *sim.Dataset {
			d, _ := loadData(name, seed, uploads) // a missing one fails when the run starts, with its reason
			return d
		}}}
}

// Routes registers the page routes (GET / and GET /play) on r.
func (p *Pages) Routes(r chi.Router) {
	r.Get("/", p.home)
	r.Get("/play", p.play)
	r.Get("/gallery", p.gallery)
}

func (p *Pages) home(w http.ResponseWriter, r *http.Request) {
	known := p.methods.names()
	h := templates.Home{Setup: p.setup("gap", []string{"mfvi", "gip"}, defaultSeed)}
	for _, s := range scenario.All() {
		card := templates.Scenario{Slug: s.Slug, Name: s.Name, Summary: s.Summary, URL: s.URL(),
			Data: dataLabel(s.Data), Available: true, Note: s.Note}
		for _, m := range s.Methods {
			card.Methods = append(card.Methods, p.methodLabel(m))
			if !slices.Contains(known, m) {
				card.Available = false
			}
		}
		h.Scenarios = append(h.Scenarios, card)
	}
	p.render(w, r, http.StatusOK, templates.HomePage(h))
}

func (p *Pages) play(w http.ResponseWriter, r *http.Request) {
	c, err := parsePlay(r.URL.Query(), p.methods)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	cfg, err := p.pageConfig(c)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	view := templates.Play{
		Title:     dataLabel(c.Data),
		DataLabel: dataLabel(c.Data),
		Seed:      c.Seed,
		Setup:     p.setup(c.Data, methodNames(c), c.Seed),
		Config:    cfg,
		Present:   c.Present,

		MaxStepCommand: engine.MaxStepCommand,
	}
	if s, ok := scenario.BySlug(c.Scenario); ok {
		view.Title, view.Description, view.Note = s.Name, s.Description, s.Note
		if s.Claim != nil {
			view.Claim, view.ClaimStep = s.Claim.Text, s.Claim.Step
		}
		view.Sweep = sweepView(s.Sweep, c) // api_sweeps_page.go
	} else {
		labels := make([]string, len(c.Panels))
		for i, pc := range c.Panels {
			labels[i] = pc.Spec.Label
		}
		view.Title = strings.Join(labels, " vs ") + " on " + lowerFirst(view.DataLabel)
	}
	for _, in := range datasets.Infos() {
		if in.Name == c.Data {
			view.DataInfo = in.Description
		}
	}
	if strings.HasPrefix(c.Data, "upload:") {
		view.DataInfo = "Uploaded CSV, standardised for the network; plots are in the file's units."
	}
	for _, pc := range c.Panels {
		view.Panels = append(view.Panels, panelView(pc, c))
	}
	p.render(w, r, http.StatusOK, templates.PlayPage(view))
}

// fail answers a bad query with 400 and a page that names the field.
func (p *Pages) fail(w http.ResponseWriter, r *http.Request, err error) {
	e := templates.Error{Status: http.StatusBadRequest, Title: "This link does not describe an experiment", Message: err.Error()}
	var fe *sim.FieldError
	if errors.As(err, &fe) {
		e.Field, e.Message = fe.Field, fe.Message
	}
	p.render(w, r, e.Status, templates.ErrorPage(e))
}

func (p *Pages) render(w http.ResponseWriter, r *http.Request, status int, c templ.Component) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	if err := c.Render(r.Context(), w); err != nil {
		p.log.Error("render page", "path", r.URL.Path, "err", err)
	}
}

func (p *Pages) setup(data string, methods []string, seed uint64) templates.Setup {
	s := templates.Setup{Seed: seed}
	for _, in := range datasets.Infos() {
		s.Datasets = append(s.Datasets, templates.Option{Value: in.Name, Label: in.Label, Selected: in.Name == data})
	}
	for _, m := range p.methods.names() {
		s.Methods = append(s.Methods, templates.Option{Value: m, Label: p.methodLabel(m), Selected: slices.Contains(methods, m)})
	}
	return s
}

func (p *Pages) methodLabel(name string) string {
	if m, err := p.methods.new(name, ""); err == nil {
		return m.Spec().Label
	}
	return name
}

func methodNames(c PlayConfig) []string {
	out := make([]string, len(c.Panels))
	for i, pc := range c.Panels {
		out[i] = pc.Method
	}
	return out
}

func dataLabel(name string) string {
	for _, in := range datasets.Infos() {
		if in.Name == name {
			return in.Label
		}
	}
	if strings.HasPrefix(name, "upload:") {
		return "Your data"
	}
	return name
}

// panelView turns a panel's spec and values into the controls to render.
func panelView(pc PanelConfig, c PlayConfig) templates.Panel {
	// A link that highlights no control shows every control open; one that
	// does folds the others away, under the plots.
	v := templates.Panel{Method: pc.Method, Label: pc.Spec.Label, Family: string(pc.Spec.Family), Model: pc.Model,
		ControlsOpen: len(c.Focus) == 0}
	for _, s := range pc.Spec.Controls {
		ctl := controlView(pc.Method, s, pc.Controls[s.Name])
		ctl.Hidden = listed(c.Hide, pc.Method, s.Name)
		ctl.Focus = listed(c.Focus, pc.Method, s.Name)
		if ctl.Hidden {
			v.HiddenCount++
		}
		v.Controls = append(v.Controls, ctl)
	}
	return v
}

// sliderSteps is how many positions a slider without a natural step has.
const sliderSteps = 400

func controlView(method string, s sim.ControlSpec, val sim.Value) templates.Control {
	c := templates.Control{
		ID: "ctl-" + method + "-" + s.Name, Name: s.Name, Label: s.Label, Help: s.Help,
		Min: fnum(s.Min), Max: fnum(s.Max), Step: fnum(s.Step), Value: boxValue(val),
		Log: s.Log && s.Min > 0, Integer: s.Integer, Live: s.Live,
		Toggle: s.Toggle, On: s.Toggle && val.Num >= 0.5, List: s.List > 0,
	}
	for _, o := range s.Options {
		c.Options = append(c.Options, templates.Option{Value: o, Label: o, Selected: o == val.Choice})
	}
	if c.Step == "0" {
		c.Step = "any"
	}
	switch {
	case c.Log:
		lo, hi := math.Log10(s.Min), math.Log10(s.Max)
		c.SliderMin, c.SliderMax = fnum(lo), fnum(hi)
		c.SliderStep = "any" // a stepped log slider would snap 0.5 to 10^-0.3
		c.Position = fnum(math.Log10(val.Num))
	default:
		c.SliderMin, c.SliderMax, c.Position = c.Min, c.Max, fnum(val.Num)
		c.SliderStep = c.Step
		if s.Step <= 0 {
			c.SliderStep = fnum((s.Max - s.Min) / sliderSteps)
		}
	}
	return c
}

// lowerFirst lower-cases a label's first letter for use mid-sentence, but
// leaves an acronym ("GP classification") alone.
func lowerFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r2, _ := utf8.DecodeRuneInString(s[n:]); unicode.IsUpper(r2) {
		return s
	}
	return string(unicode.ToLower(r)) + s[n:]
}

func fnum(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// boxValue is a number box's text: whole numbers whole, others to three
// significant digits so the box never overflows (static/app/format.js's
// fmtInput does the same in the page).
func boxValue(v sim.Value) string {
	if v.IsChoice() || v.Num == math.Trunc(v.Num) {
		return v.String()
	}
	return strconv.FormatFloat(v.Num, 'g', 3, 64)
}
