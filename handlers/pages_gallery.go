package handlers

import (
	"encoding/json"
	"net/http"
	"strings"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/gallery"
	"github.com/posterior-playground/playground/sim/target"
	"github.com/posterior-playground/playground/templates"
)

// maxGalleryPanels bounds the panels of one gallery page: each is a run
// against the client's cap.
const maxGalleryPanels = 4

// gallery serves GET /gallery?target=NAME&methods=M1,M2: the target and
// each panel's method (default the funnel, NUTS beside mean-field VI).
func (p *Pages) gallery(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	g := templates.GalleryView{Target: q.Get("target"), Panels: []string{"nuts", "mfvi"}}
	if g.Target == "" {
		g.Target = "funnel"
	}
	if _, ok := target.Lookup(g.Target); !ok {
		p.fail(w, r, &sim.FieldError{Field: "target", Message: "no built-in target is called " + g.Target})
		return
	}
	if m := q.Get("methods"); m != "" {
		g.Panels = strings.Split(m, ",")
	}
	if len(g.Panels) > maxGalleryPanels {
		p.fail(w, r, &sim.FieldError{Field: "methods", Message: "at most 4 panels"})
		return
	}
	for _, m := range g.Panels {
		if _, ok := gallery.LookupMethod(m); !ok {
			p.fail(w, r, &sim.FieldError{Field: "methods", Message: "no gallery method is called " + m})
			return
		}
	}
	specs := struct {
		Targets []target.Spec        `json:"targets"`
		Methods []gallery.MethodSpec `json:"methods"`
	}{target.Specs(), gallery.Methods()}
	for _, t := range specs.Targets {
		g.Targets = append(g.Targets, templates.Option{Value: t.Name, Label: t.Label})
	}
	for _, m := range specs.Methods {
		g.Methods = append(g.Methods, templates.Option{Value: m.Name, Label: m.Label})
	}
	b, err := json.Marshal(specs)
	if err != nil {
		p.fail(w, r, err)
		return
	}
	g.Specs = string(b)
	p.render(w, r, http.StatusOK, templates.GalleryPage(g))
}
