package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/experiment"
)

// getDraws handles GET /api/runs/{id}/draws.csv: a sampler's kept draws,
// every chain, at full precision, in the format of `playground run --draws`
// (sim/experiment: .chain, .iteration, .draw, then the parameters, in the
// data's report units). The draws are copied on the run's goroutine
// between two steps, so the file is one consistent state; the copy is the
// run's kept draws and no more (a chain keeps at most 100,000 of them), and
// it is written out after the run has gone back to stepping. A method that
// is not a sampler keeps no draws: 400 naming the method.
func (a *API) getDraws(w http.ResponseWriter, r *http.Request) {
	run, err := a.reg.Get(chi.URLParam(r, "id"))
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	var t *experiment.ChainTable
	err = run.Inspect(r.Context(), func(m sim.Stepper, d *sim.Dataset) {
		if c, ok := m.(sim.Chains); ok {
			t = experiment.SamplerDraws(c, d)
		}
	})
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	if t == nil {
		c := run.Config()
		writeError(w, a.log, http.StatusBadRequest, "method",
			fmt.Sprintf("%s keeps no draws: only the samplers (metropolis, sgld, hmc, nuts) do; `playground run --draws` writes sampled functions for the others", c.Method))
		return
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' {
			return r
		}
		return '_'
	}, run.ID())
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="draws-`+name+`.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	if err := t.WriteCSV(w); err != nil && !errors.Is(err, r.Context().Err()) {
		a.log.Warn("writing draws", "run", run.ID(), "err", err) // the status line has gone out
	}
}
