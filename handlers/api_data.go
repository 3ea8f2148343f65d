package handlers

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/wire"
)

// UploadPrefix starts the data name of an uploaded CSV data set.
const UploadPrefix = "upload:"

// Uploads keeps uploaded data sets in memory, at most max of them; adding
// one more evicts the least recently used.
type Uploads struct {
	max   int
	mu    sync.Mutex
	order []string // least recently used first
	sets  map[string]*sim.Dataset
}

// NewUploads returns a store of at most max data sets (default 32).
func NewUploads(max int) *Uploads {
	if max <= 0 {
		max = 32
	}
	return &Uploads{max: max, sets: make(map[string]*sim.Dataset)}
}

// Add stores d and returns its data name, "upload:<id>".
func (u *Uploads) Add(d *sim.Dataset) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	name := UploadPrefix + hex.EncodeToString(b[:])
	u.mu.Lock()
	defer u.mu.Unlock()
	for len(u.order) >= u.max {
		delete(u.sets, u.order[0])
		u.order = u.order[1:]
	}
	u.sets[name] = d
	u.order = append(u.order, name)
	return name, nil
}

// Get returns the data set stored under name and marks it recently used.
func (u *Uploads) Get(name string) (*sim.Dataset, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	d, ok := u.sets[name]
	if ok {
		i := slices.Index(u.order, name)
		u.order = append(slices.Delete(u.order, i, i+1), name)
	}
	return d, ok
}

// upload handles POST /api/data: the body is CSV text with columns x and y.
func (a *API) upload(w http.ResponseWriter, r *http.Request) {
	// LoadCSV reads at most MaxCSVBytes+1 and names the limit when over it.
	body := http.MaxBytesReader(w, r.Body, datasets.MaxCSVBytes+1)
	d, err := datasets.LoadCSV(body, "the uploaded file")
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	name, err := a.uploads.Add(d)
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	d.Name = name
	if d.Label == "" {
		d.Label = "Uploaded CSV"
	}
	writeJSON(w, a.log, http.StatusCreated, wire.Upload{Data: name, N: d.N()})
}

// NewFactory returns the factory of real runs: methods from the catalog,
// built-in data sets generated for the run's seed, or uploads from u.
func NewFactory(u *Uploads) engine.Factory {
	return func(cfg engine.RunConfig) (sim.Method, *sim.Dataset, sim.Controls, error) {
		if cfg.Method == "" {
			return nil, nil, nil, &sim.FieldError{Field: "method", Message: fmt.Sprintf("required (one of %s)", strings.Join(catalog.MethodNames(), ", "))}
		}
		uploaded := strings.HasPrefix(cfg.Data, UploadPrefix)
		d, err := loadData(cfg.Data, cfg.Seed, u)
		if err != nil {
			return nil, nil, nil, err
		}
		if uploaded {
			d = copyDataset(d)
		}
		m, d, _, controls, err := experiment.NewMethod(d, cfg.Method, cfg.Model, cfg.Controls, uploaded)
		if err != nil {
			return nil, nil, nil, err
		}
		return m, d, controls, nil
	}
}

// loadData returns a built-in data set for seed, or an upload from u (nil:
// none), shared: copy an upload before a method may write to it. Errors are
// *sim.FieldErrors naming data.
func loadData(name string, seed uint64, u *Uploads) (*sim.Dataset, error) {
	switch {
	case name == "":
		return nil, &sim.FieldError{Field: "data", Message: fmt.Sprintf("required (one of %s, or upload:<id> from POST /api/data)", strings.Join(datasets.Names(), ", "))}
	case strings.HasPrefix(name, UploadPrefix):
		var d *sim.Dataset
		ok := false
		if u != nil {
			d, ok = u.Get(name)
		}
		if !ok {
			return nil, &sim.FieldError{Field: "data", Message: fmt.Sprintf("no uploaded data set %q: uploads are kept for a while only; upload the file again", name)}
		}
		return d, nil
	}
	return datasets.Load(name, seed)
}

// copyDataset copies the slices a method could write to, so runs sharing
// an upload cannot disturb each other.
func copyDataset(d *sim.Dataset) *sim.Dataset {
	c := *d
	c.X, c.Y, c.Grid = slices.Clone(d.X), slices.Clone(d.Y), slices.Clone(d.Grid)
	return &c
}
