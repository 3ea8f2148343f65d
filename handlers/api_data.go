package handlers

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/datasets"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/experiment"
	"github.com/posterior-playground/playground/sim/wire"
)

// UploadPrefix starts the data name of an uploaded CSV data set.
const UploadPrefix = "upload:"

// Uploads keeps uploaded data sets in memory. Each belongs to the browser
// session that uploaded it: a session keeps at most PerSession (its own
// least recently used is evicted for a new one), and the store at most its
// total, refusing a new session's file when full rather than evicting
// anyone's. A file nobody has used for UploadIdle is dropped, so the store
// does not stay full of closed browsers' files. Reading is by name, which
// is unguessable: a run on an uploaded file can be shared and forked.
type Uploads struct {
	total int
	now   func() time.Time
	mu    sync.Mutex
	sets  map[string]*upload
	order map[string][]string // per session, least recently used first
}

type upload struct {
	d       *sim.Dataset
	session string
	addr    string // the client address that uploaded it
	used    time.Time
}

// Limits of the upload store.
const (
	UploadsPerSession = 4
	UploadIdle        = time.Hour
)

// ErrUploadsFull is an upload refused because the store holds its total.
var ErrUploadsFull = errors.New("the server holds its maximum of uploaded files; try again later, or use one of yours again")

// NewUploads returns a store of at most total data sets (default 32).
func NewUploads(total int) *Uploads {
	if total <= 0 {
		total = 32
	}
	return &Uploads{total: total, now: time.Now, sets: make(map[string]*upload), order: make(map[string][]string)}
}

// Add stores d for session and returns its data name, "upload:<id>".
func (u *Uploads) Add(session string, d *sim.Dataset) (string, error) {
	return u.add(session, "", 0, d)
}

// add is Add counting the uploads of client address addr too: when it
// holds perAddr (> 0) already, the file is refused with a *capError saying
// when its least recently used frees.
func (u *Uploads) add(session, addr string, perAddr int, d *sim.Dataset) (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	name := UploadPrefix + hex.EncodeToString(b[:])
	u.mu.Lock()
	defer u.mu.Unlock()
	now := u.now()
	for n, up := range u.sets {
		if now.Sub(up.used) > UploadIdle {
			u.drop(n)
		}
	}
	if mine := u.order[session]; len(mine) >= min(UploadsPerSession, u.total) {
		u.drop(mine[0])
	} else if held, oldest := u.heldBy(addr); perAddr > 0 && held >= perAddr {
		wait := oldest.Add(UploadIdle).Sub(now)
		return "", &capError{field: "data", retry: wait, message: fmt.Sprintf(
			"your network address (%s) holds %d uploaded files, the most one address may (every browser behind it counts); a file unused for %s is dropped, the next in %v, or a browser's fifth upload replaces its oldest",
			addr, held, humanDuration(UploadIdle), wait.Round(time.Second))}
	} else if len(u.sets) >= u.total {
		return "", ErrUploadsFull
	}
	u.sets[name] = &upload{d: d, session: session, addr: addr, used: now}
	u.order[session] = append(u.order[session], name)
	return name, nil
}

// heldBy counts addr's uploads and finds when the least recently used of
// them was last used; u.mu must be held.
func (u *Uploads) heldBy(addr string) (n int, oldest time.Time) {
	for _, up := range u.sets {
		if up.addr == addr {
			if n++; n == 1 || up.used.Before(oldest) {
				oldest = up.used
			}
		}
	}
	return n, oldest
}

// nextFree is how long until the store's least recently used file is
// dropped for idleness.
func (u *Uploads) nextFree() time.Duration {
	u.mu.Lock()
	defer u.mu.Unlock()
	var oldest time.Time
	for _, up := range u.sets {
		if oldest.IsZero() || up.used.Before(oldest) {
			oldest = up.used
		}
	}
	return oldest.Add(UploadIdle).Sub(u.now())
}

// drop removes the upload name; u.mu must be held.
func (u *Uploads) drop(name string) {
	up, ok := u.sets[name]
	if !ok {
		return
	}
	delete(u.sets, name)
	list := slices.DeleteFunc(u.order[up.session], func(n string) bool { return n == name })
	if len(list) == 0 {
		delete(u.order, up.session)
	} else {
		u.order[up.session] = list
	}
}

// Get returns the data set stored under name and marks it recently used.
func (u *Uploads) Get(name string) (*sim.Dataset, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	up, ok := u.sets[name]
	if !ok {
		return nil, false
	}
	up.used = u.now()
	list := u.order[up.session]
	i := slices.Index(list, name)
	u.order[up.session] = append(slices.Delete(list, i, i+1), name)
	return up.d, true
}

// upload handles POST /api/data: the body is CSV text with columns x and y.
func (a *API) upload(w http.ResponseWriter, r *http.Request) {
	if !a.requireSession(w, r) { // clients.go
		return
	}
	// LoadCSV reads at most MaxCSVBytes+1 and names the limit when over it.
	body := http.MaxBytesReader(w, r.Body, datasets.MaxCSVBytes+1)
	d, err := datasets.LoadCSV(body, "the uploaded file")
	if err != nil {
		writeErr(w, r, a.log, err)
		return
	}
	name, err := a.uploads.add(a.clientKey(r), clientAddr(r), a.limits.Uploads, d)
	if errors.Is(err, ErrUploadsFull) {
		wait := a.uploads.nextFree()
		err = &capError{field: "data", retry: wait, message: fmt.Sprintf(
			"the server holds its maximum of %d uploaded files, each kept until it has gone unused for %s: the next frees in %v; or use one of yours again", a.uploads.total, humanDuration(UploadIdle), wait.Round(time.Second))}
	}
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
