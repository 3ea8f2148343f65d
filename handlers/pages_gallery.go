package handlers

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/scenario"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/templates"
)

// maxGalleryPanels bounds the panels of one gallery page: each is a run
// against the client's cap.
const maxGalleryPanels = 4

// galleryConfig is what the gallery page starts from (static/app/
// gallery.js reads it): the specs, the link's state and the limits a
// state link keeps.
type galleryConfig struct {
	Targets        []target.Spec        `json:"targets"`
	Methods        []gallery.MethodSpec `json:"methods"`
	Target         string               `json:"target"` // a built-in target's name, or a typed density's text
	Typed          bool                 `json:"typed"`
	TargetControls sim.Controls         `json:"target_controls"`
	Seed           uint64               `json:"seed"`
	Panels         []galleryPanel       `json:"panels"`
	Present        bool                 `json:"present"`
	Pace           engine.Unit          `json:"pace,omitempty"` // the race's unit (pace=): Play races the panels by it
	Scenario       string               `json:"scenario,omitempty"`
	Scenarios      []scenarioBody       `json:"scenarios"`
	Limits         galleryLimits        `json:"limits"`
}

// galleryPanel is one panel of the link: its method, the controls its run
// starts with, its own target controls over the page's, and either the
// state to replay it to or a shared live run to watch; in an open
// scenario, its name (what the claim's checks call it) and chains.
type galleryPanel struct {
	Name           string       `json:"name,omitempty"`
	Method         string       `json:"method"`
	Controls       sim.Controls `json:"controls"`
	TargetControls sim.Controls `json:"target_controls,omitempty"`
	Chains         int          `json:"chains,omitempty"`
	Replay         any          `json:"replay,omitempty"`
	Watch          string       `json:"watch,omitempty"`
}

type galleryLimits struct {
	MaxReplaySteps   int `json:"max_replay_steps"`
	MaxReplayChanges int `json:"max_replay_changes"`
	MaxPanels        int `json:"max_panels"`
}

// gallery serves GET /gallery: the target (target=NAME, or a density's
// text in Stan's notation) and its controls (NAME=VALUE), the panels'
// methods (methods=M1,M2, default NUTS beside mean-field VI), the seed,
// and per panel i (from 1) its controls pI.NAME=VALUE, its own value of
// a target control pI.target.NAME=VALUE, the state to
// replay it to pI.replay=STEP,STEP:NAME:VALUE… or a shared run to watch
// pI.watch=ID; present=1, pace=grads|cpu (a link made while the panels
// raced at equal budget: Play races them again) and scenario=SLUG. Every
// bad parameter is a 400 page naming it.
func (p *Pages) gallery(w http.ResponseWriter, r *http.Request) {
	c, err := parseGallery(r.URL.Query())
	if err != nil {
		p.fail(w, r, err)
		return
	}
	g := templates.GalleryView{Target: c.Target, Typed: c.Typed}
	for _, t := range c.Targets {
		g.Targets = append(g.Targets, templates.Option{Value: t.Name, Label: t.Label})
	}
	for _, m := range c.Methods {
		g.Methods = append(g.Methods, templates.Option{Value: m.Name, Label: m.Label})
	}
	for _, pc := range c.Panels {
		g.Panels = append(g.Panels, pc.Method)
	}
	b, err := json.Marshal(c)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	g.Config = string(b)
	p.render(w, r, http.StatusOK, templates.GalleryPage(g))
}

// parseGallery reads the gallery's link; see gallery.
func parseGallery(q url.Values) (*galleryConfig, error) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	present, err := parsePresent(q)
	if err != nil {
		return nil, err
	}
	pace, err := parsePace(q)
	if err != nil {
		return nil, err
	}
	c := &galleryConfig{Targets: target.Specs(), Methods: gallery.Methods(), Target: get("target"), Seed: 1,
		TargetControls: sim.Controls{}, Present: present, Pace: pace, Scenarios: galleryScenarios(),
		Limits: galleryLimits{engine.MaxReplaySteps, engine.MaxReplayChanges, maxGalleryPanels}}
	if c.Target == "" {
		c.Target = "funnel"
	}
	sc, open := scenario.ByTargetSlug(get("scenario"))
	if s := get("scenario"); s != "" {
		if !open {
			return nil, &sim.FieldError{Field: "scenario", Message: "no gallery scenario is called " + s}
		}
		c.Scenario = s
	}
	var tspec []sim.ControlSpec
	if i := slices.IndexFunc(c.Targets, func(t target.Spec) bool { return t.Name == c.Target }); i >= 0 {
		tspec = c.Targets[i].Controls
	} else if strings.ContainsAny(c.Target, " ~;") {
		c.Typed = true // a density in Stan's notation: the run says what is wrong with it
	} else {
		return nil, &sim.FieldError{Field: "target", Message: "no built-in target is called " + c.Target + ", nor is it a density in Stan's notation"}
	}
	if s := get("seed"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			return nil, &sim.FieldError{Field: "seed", Message: "a whole number ≥ 0"}
		}
		c.Seed = n
	}
	methods := []string{"nuts", "mfvi"}
	if m := get("methods"); m != "" {
		methods = strings.Split(m, ",")
	}
	if len(methods) > maxGalleryPanels {
		return nil, &sim.FieldError{Field: "methods", Message: "at most 4 panels"}
	}
	specs := make([]gallery.MethodSpec, len(methods))
	for i, m := range methods {
		s, ok := gallery.LookupMethod(m)
		if !ok {
			return nil, &sim.FieldError{Field: "methods", Message: "no gallery method is called " + m}
		}
		specs[i] = s
		c.Panels = append(c.Panels, galleryPanel{Method: m, Controls: sim.Controls{}})
	}
	if open && sc.Target == c.Target {
		if err := applyScenario(c, sc); err != nil {
			return nil, err
		}
	}
	for key, vals := range q {
		switch key {
		case "target", "methods", "seed", "present", "pace", "scenario":
			continue
		}
		val := vals[0]
		panel, name, ok := strings.Cut(key, ".")
		if !ok { // a target control
			v, err := readControl(key, tspec, key, val)
			if err != nil {
				return nil, err
			}
			c.TargetControls[key] = v
			continue
		}
		i, err := strconv.Atoi(strings.TrimPrefix(panel, "p"))
		if !strings.HasPrefix(panel, "p") || err != nil || i < 1 || i > len(methods) {
			return nil, &sim.FieldError{Field: key, Message: "not a parameter of the gallery: a panel's is p1.NAME to p" + strconv.Itoa(len(methods)) + ".NAME"}
		}
		pc, spec := &c.Panels[i-1], specs[i-1]
		switch name {
		case "watch":
			if pc.Watch = val; !runIDRE.MatchString(val) {
				return nil, &sim.FieldError{Field: key, Message: strconv.Quote(val) + " is not a run id (16 hex digits, perhaps after an instance's name and a dash)"}
			}
		case "replay":
			rp, err := parseReplay(key, val, sim.MethodSpec{Name: spec.Name, Controls: spec.Controls})
			if err != nil {
				return nil, err
			}
			pc.Replay = rp
		default:
			if strings.HasPrefix(name, "target.") {
				if err := panelTargetControl(c, pc, key, name, val); err != nil {
					return nil, err
				}
				break
			}
			v, err := readControl(key, spec.Controls, name, val)
			if err != nil {
				return nil, err
			}
			pc.Controls[name] = v
		}
		if pc.Watch != "" && pc.Replay != nil {
			return nil, &sim.FieldError{Field: panel + ".watch", Message: "watches a live run; it cannot also replay a link's state (give one of " + panel + ".watch and " + panel + ".replay)"}
		}
	}
	return c, nil
}

// readControl reads a link's value of the named control of specs, its
// errors naming key.
func readControl(key string, specs []sim.ControlSpec, name, val string) (sim.Value, error) {
	i := slices.IndexFunc(specs, func(c sim.ControlSpec) bool { return c.Name == name })
	if i < 0 {
		names := make([]string, len(specs))
		for j, c := range specs {
			names[j] = c.Name
		}
		return sim.Value{}, &sim.FieldError{Field: key, Message: "no such control here (allowed: " + strings.Join(names, ", ") + ")"}
	}
	v := sim.Choice(val)
	if !specs[i].Textual() {
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return sim.Value{}, &sim.FieldError{Field: key, Message: strconv.Quote(val) + " is not a number"}
		}
		v = sim.Num(x)
	}
	if err := specs[i].Validate(v); err != nil {
		return sim.Value{}, &sim.FieldError{Field: key, Message: err.Error()}
	}
	return v, nil
}
