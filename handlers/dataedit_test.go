package handlers

import (
	"encoding/base64"
	"errors"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/datasets"
)

func gapData(t testing.TB) *sim.Dataset {
	t.Helper()
	d, err := datasets.Load("gap", 1)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// An edit encodes and decodes to itself, and applied to its data set gives
// the kept points exactly (the data set's own float64s) and the added
// points as the float32s the browser sent.
func TestDataEditRoundTrip(t *testing.T) {
	d := gapData(t)
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 50 {
		e := dataEdit{baseN: d.N(), removed: make([]bool, d.N())}
		for i := range e.removed {
			e.removed[i] = r.IntN(4) == 0
		}
		for range r.IntN(20) {
			e.x = append(e.x, float32(-1+2*r.Float64()))
			e.y = append(e.y, float32(r.NormFloat64()))
		}
		s := e.encode()
		got, err := decodeEdit("edit", s)
		if err != nil {
			t.Fatalf("trial %d: %q does not decode: %v", trial, s, err)
		}
		if got.baseN != e.baseN || !slices.Equal(got.removed, e.removed) || !slices.Equal(got.x, e.x) || !slices.Equal(got.y, e.y) {
			t.Fatalf("trial %d: %+v → %q → %+v", trial, e, s, got)
		}
		xu, yu, err := got.points("edit", d)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for i := range d.N() {
			if e.removed[i] {
				continue
			}
			if xu[k] != d.XScale.ToUser(d.X[i]) || yu[k] != d.YScale.ToUser(d.Y[i]) {
				t.Fatalf("trial %d: kept point %d is (%g, %g), want point %d of the data set", trial, k, xu[k], yu[k], i)
			}
			k++
		}
		for i := range e.x {
			if xu[k+i] != float64(e.x[i]) || yu[k+i] != float64(e.y[i]) {
				t.Fatalf("trial %d: added point %d is (%g, %g), want (%g, %g)", trial, i, xu[k+i], yu[k+i], e.x[i], e.y[i])
			}
		}
		if len(xu) != k+len(e.x) {
			t.Fatalf("trial %d: %d points, want %d", trial, len(xu), k+len(e.x))
		}
	}
}

// Every bound of the encoding is enforced, naming the field.
func TestDataEditBounds(t *testing.T) {
	d := gapData(t)
	ok := dataEdit{baseN: d.N(), removed: make([]bool, d.N())}
	many := ok
	for range MaxEditAdded + 1 {
		many.x, many.y = append(many.x, 0), append(many.y, 0)
	}
	most := many
	most.x, most.y = most.x[:MaxEditAdded], most.y[:MaxEditAdded]
	if s := most.encode(); len(s) > MaxEditChars {
		t.Fatalf("an edit adding %d points is %d characters, over MaxEditChars %d", MaxEditAdded, len(s), MaxEditChars)
	}
	if _, err := decodeEdit("edit", most.encode()); err != nil {
		t.Fatalf("an edit adding the most points is refused: %v", err)
	}
	// Removal bits past N: the last byte of the bitmap is partly unused.
	stray := []byte{editVersion, byte(d.N()), byte(d.N() >> 8)}
	stray = append(stray, make([]byte, (d.N()+7)/8)...)
	stray[len(stray)-1] = 0x80
	okS := ok.encode()
	for _, tc := range []struct{ name, s, want string }{
		{"too many added", many.encode(), "at most"},
		{"too long", strings.Repeat("A", MaxEditChars+1), "at most"},
		{"not base64", "!!!!", "base64"},
		{"padded", okS + "==", "base64"},
		{"wrong version", "AA", "version"},
		{"empty", "", "version"},
		{"truncated pair", b64(append(unb64(okS), 0, 0, 0, 0)), "truncated"},
		{"stray bits", b64(stray), "beyond"},
	} {
		_, err := decodeEdit("edit", tc.s)
		if fe, isFE := errors.AsType[*sim.FieldError](err); !isFE || fe.Field != "edit" || !strings.Contains(fe.Message, tc.want) {
			if d.N()%8 == 0 && tc.name == "stray bits" {
				continue // no unused bits to set
			}
			t.Errorf("%s: got %v, want a field error on edit saying %q", tc.name, err, tc.want)
		}
	}
	// Decoded fine, refused against the data set: another N, a point
	// outside the plot, NaN, too few points left.
	other := ok
	other.baseN, other.removed = d.N()+1, make([]bool, d.N()+1)
	outside := ok
	outside.x, outside.y = []float32{1e6}, []float32{0}
	nan := ok
	nan.x, nan.y = []float32{float32(math.NaN())}, []float32{0}
	few := dataEdit{baseN: d.N(), removed: slices.Repeat([]bool{true}, d.N())}
	few.x, few.y = []float32{0}, []float32{0}
	for _, tc := range []struct {
		name string
		e    dataEdit
		want string
	}{{"other N", other, "this one has"}, {"outside", outside, "outside the plot's x-range"}, {"NaN", nan, "not finite"}, {"one point", few, "want at least 2"}} {
		_, err := applyEdit("edit", tc.e.encode(), d)
		if fe, isFE := errors.AsType[*sim.FieldError](err); !isFE || fe.Field != "edit" || !strings.Contains(fe.Message, tc.want) {
			t.Errorf("%s: got %v, want a field error on edit saying %q", tc.name, err, tc.want)
		}
	}
}

func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }

// A link's edit is checked against the page's data set and kept in its
// canonical URL.
func TestParsePlayEdit(t *testing.T) {
	d := gapData(t)
	src := catalogSource()
	src.data = func(string, uint64) *sim.Dataset { return d }
	e := dataEdit{baseN: d.N(), removed: make([]bool, d.N())}
	e.removed[3] = true
	e.x, e.y = []float32{0.25}, []float32{1.5}
	q, _ := url.ParseQuery("data=gap&methods=mfvi,gip&edit=" + e.encode())
	c, err := parsePlay(q, src)
	if err != nil {
		t.Fatal(err)
	}
	if c.Edit != e.encode() || !strings.Contains(c.URL(), "edit="+e.encode()) {
		t.Fatalf("edit %q, URL %s; want the edit kept", c.Edit, c.URL())
	}
	e.x[0] = 1e6
	q.Set("edit", e.encode())
	if _, err := parsePlay(q, src); err == nil || !strings.Contains(err.Error(), "edit") {
		t.Fatalf("an edit off the plot: %v, want an error naming edit", err)
	}
}

// FuzzDataEdit feeds arbitrary strings to the decoder of a link's edit
// (edit=, also a data command's). It must not panic; every error is a
// *sim.FieldError naming the field; an edit it accepts is within the
// bounds, encodes back to the same string, and applied to the gap data set
// either gives finite points inside the plot or a field error.
func FuzzDataEdit(f *testing.F) {
	d := gapData(f)
	e := dataEdit{baseN: d.N(), removed: make([]bool, d.N())}
	f.Add(e.encode())
	e.removed[0], e.x, e.y = true, []float32{0.1}, []float32{-2}
	f.Add(e.encode())
	for _, s := range []string{"", "AQ", "AQAA", "AQEAAQ", "AQgA_w", "AQAAAACAfwAAAAA", "AQ==", "!!", strings.Repeat("A", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := decodeEdit("edit", s)
		if err != nil {
			if fe, ok := errors.AsType[*sim.FieldError](err); !ok || fe.Field != "edit" || fe.Message == "" {
				t.Fatalf("%q: error %#v does not name edit", s, err)
			}
			return
		}
		if len(s) > MaxEditChars || len(got.x) > MaxEditAdded || len(got.x) != len(got.y) || len(got.removed) != got.baseN {
			t.Fatalf("%q: accepted out of bounds: %d characters, %d added", s, len(s), len(got.x))
		}
		if again := got.encode(); again != s {
			t.Fatalf("%q decodes and encodes to %q", s, again)
		}
		if got.baseN != d.N() {
			return
		}
		ed, err := applyEdit("edit", s, d)
		if err != nil {
			if fe, ok := errors.AsType[*sim.FieldError](err); !ok || fe.Field != "edit" {
				t.Fatalf("%q: error %#v does not name edit", s, err)
			}
			return
		}
		lo, hi := d.Grid[0], d.Grid[len(d.Grid)-1]
		for i := range ed.X {
			if !(ed.X[i] >= lo && ed.X[i] <= hi) || math.IsNaN(ed.Y[i]) || math.IsInf(ed.Y[i], 0) {
				t.Fatalf("%q: accepted point %d (%g, %g) off the plot [%g, %g] or not finite", s, i, ed.X[i], ed.Y[i], lo, hi)
			}
		}
	})
}

func unb64(s string) []byte {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// The largest edit (every point of the largest upload removed, the most
// points added) is within MaxEditChars, and a data command carrying it
// fits the default limit of a viewer's message.
func TestDataEditFitsReadLimit(t *testing.T) {
	e := dataEdit{baseN: datasets.MaxEditPoints, removed: slices.Repeat([]bool{true}, datasets.MaxEditPoints)}
	for range MaxEditAdded {
		e.x, e.y = append(e.x, -1.2345678e-12), append(e.y, 3.4e38)
	}
	s := e.encode()
	if len(s) > MaxEditChars {
		t.Fatalf("the largest edit is %d characters, over MaxEditChars %d", len(s), MaxEditChars)
	}
	msg := `{"op":"data","edit":"` + s + `"}`
	if limit := (StreamConfig{}).withDefaults().ReadLimit; int64(len(msg)) > limit {
		t.Fatalf("a data command with the largest edit is %d bytes, over the read limit %d", len(msg), limit)
	}
	if _, err := parseOp([]byte(msg)); err != nil {
		t.Fatal(err)
	}
}

// POST /api/runs/{id}/ops takes a data command as x and y, as an edit, or
// neither (the data set again); a refused one names data and changes
// nothing; the run's data (GET /api/runs/{id}) follow.
func TestDataOpAPI(t *testing.T) {
	e := newEnv(t, envOptions{})
	id := e.create()
	ops := "/api/runs/" + id + "/ops"
	points := func() []float64 {
		var info struct {
			Data struct{ X []float64 } `json:"data"`
		}
		e.do("GET", "/api/runs/"+id, "", "", &info)
		return info.Data.X
	}
	if code, _ := e.do("POST", ops, "application/json", `{"op":"data","x":[-1,0.5,1],"y":[0,2,1]}`, nil); code != http.StatusNoContent {
		t.Fatalf("data x, y: %d", code)
	}
	if got := points(); !slices.Equal(got, []float64{-1, 0.5, 1}) {
		t.Fatalf("the run's points %v after an edit", got)
	}
	for _, bad := range []string{
		`{"op":"data","x":[0.5],"y":[1]}`,         // one point
		`{"op":"data","x":[0,5],"y":[1,1]}`,       // off the plot
		`{"op":"data","x":[0,1],"y":[1]}`,         // ragged
		`{"op":"data","x":[0,1]}`,                 // no y
		`{"op":"data","edit":"AQMAAA","x":[0,1]}`, // both forms
		`{"op":"data","edit":"AQkAAAA"}`,          // an edit of 9 points
	} {
		e.wantError("POST", ops, bad, http.StatusBadRequest, "data")
	}
	if got := points(); !slices.Equal(got, []float64{-1, 0.5, 1}) {
		t.Fatalf("refused edits changed the run's points to %v", got)
	}
	add := dataEdit{baseN: 2, removed: []bool{true, false}, x: []float32{0.25}, y: []float32{3}}
	if code, _ := e.do("POST", ops, "application/json", `{"op":"data","edit":"`+add.encode()+`"}`, nil); code != http.StatusNoContent {
		t.Fatalf("data edit: %d", code)
	}
	if got := points(); !slices.Equal(got, []float64{1, 0.25}) {
		t.Fatalf("the run's points %v after an encoded edit, want the data set's second and the added one", got)
	}
	if code, _ := e.do("POST", ops, "application/json", `{"op":"data"}`, nil); code != http.StatusNoContent {
		t.Fatalf("data restore: %d", code)
	}
	if got := points(); !slices.Equal(got, []float64{0, 1}) {
		t.Fatalf("the run's points %v after a restore, want the data set's", got)
	}
	e.wantError("POST", ops, `{"op":"inducing","n":0,"value":0}`, http.StatusBadRequest, "op") // the fake has none
}

// The play page checks a link's edit against its data set: a good one is
// in the page's config and canonical link, a bad one is a 400 naming edit.
func TestPlayPageEdit(t *testing.T) {
	d := gapData(t)
	p := NewPages(quietLog, NewUploads(0))
	e := dataEdit{baseN: d.N(), removed: make([]bool, d.N())}
	e.removed[0], e.x, e.y = true, []float32{0.5}, []float32{1}
	res, body := serve(t, p, "/play?data=gap&methods=mfvi,gip&seed=1&edit="+e.encode())
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	cfg := pageConfigOf(t, body)
	if cfg.Edit != e.encode() || !strings.Contains(cfg.URL, "edit="+e.encode()) || cfg.XRange == nil || cfg.YRange == nil || !(cfg.XRange[0] < cfg.XRange[1]) {
		t.Fatalf("config edit %q, url %s, x range %v, y range %v", cfg.Edit, cfg.URL, cfg.XRange, cfg.YRange)
	}
	e.x[0] = 1e9
	if res, body := serve(t, p, "/play?data=gap&methods=mfvi,gip&seed=1&edit="+e.encode()); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, "edit") {
		t.Fatalf("an edit off the plot: status %d", res.StatusCode)
	}
}
