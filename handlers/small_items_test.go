package handlers

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/sweeps"
	"github.com/posterior-playground/playground/sim/wire"
)

// Only the client that started a sweep may cancel it: another's DELETE is a
// 403 naming session, and the sweep goes on.
func TestSweepCancelOnlyByItsClient(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{Workers: 1}, 0)
	id := e.post("a", slow)
	var got wire.APIError
	if code, _ := e.doAs("b", "DELETE", "/api/sweeps/"+id, "", &got); code != http.StatusForbidden || got.Field != "session" {
		t.Fatalf("another client's DELETE: %d %+v", code, got)
	}
	if info := e.info(id); info.Status != sweeps.Running {
		t.Fatalf("after another client's DELETE the sweep is %s", info.Status)
	}
	var out sweeps.Info
	if code, _ := e.doAs("a", "DELETE", "/api/sweeps/"+id, "", &out); code != http.StatusOK || out.Status != sweeps.Cancelled {
		t.Fatalf("its own client's DELETE: %d %+v", code, out)
	}
}

// A list control is stored as it is read: spaces and signs gone, so one
// network has one name in the run's config, its links and its replays.
func TestArchStoredCanonical(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	for in, want := range map[string]string{" 50 , 50 ": "50,50", "+50": "50", "007,+3": "7,3", "": "0"} {
		var created wire.RunCreated
		body := `{"data":"gap","method":"mfvi","controls":{"arch":"` + in + `"}}`
		if code, _ := e.do("POST", "/api/runs", "application/json", body, &created); code != http.StatusCreated {
			t.Fatalf("create with arch %q: %d", in, code)
		}
		if got := created.Controls["arch"]; got != sim.Choice(want) {
			t.Errorf("arch %q stored as %q, want %q", in, got.Choice, want)
		}
		if code, _ := e.do("DELETE", "/api/runs/"+created.ID, "", "", nil); code != http.StatusNoContent {
			t.Fatalf("delete: %d", code)
		}
	}
	e.wantError("POST", "/api/runs", `{"data":"gap","method":"mfvi","controls":{"arch":"50,,50"}}`, http.StatusBadRequest, "arch")
}

// A JSON null is not an empty object: the create routes and a run's ops
// route refuse it, naming the body.
func TestNullBodyRefused(t *testing.T) {
	checkLeaks(t)
	e := newSweepEnv(t, sweeps.Config{Workers: 1}, 0)
	id := e.create()
	for _, path := range []string{"/api/runs", "/api/sweeps", "/api/runs/" + id + "/ops"} {
		for _, body := range []string{"null", " null\n"} {
			got := e.wantError("POST", path, body, http.StatusBadRequest, "body")
			if !strings.Contains(got.Message, "null") {
				t.Errorf("POST %s %q: %q does not say null", path, body, got.Message)
			}
		}
	}
}

// A method no API route takes is a 405 that lists the allowed ones in
// Allow, whatever the body's type; an unknown path stays a 404.
func TestMethodNotAllowedSaysAllow(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	id := e.create()
	for path, allow := range map[string]string{
		"/api/runs":                "GET, HEAD, POST",
		"/api/runs/" + id:          "GET, HEAD, DELETE",
		"/api/methods":             "GET, HEAD",
		"/api/runs/" + id + "/ops": "POST",
	} {
		for _, method := range []string{"PUT", "PATCH"} {
			for _, ct := range []string{"", "text/plain", "application/json"} {
				code, h, _ := e.roundTrip(method, path, "{}", map[string]string{"Content-Type": ct})
				if code != http.StatusMethodNotAllowed || h.Get("Allow") != allow {
					t.Errorf("%s %s (%q): %d Allow %q, want 405 Allow %q", method, path, ct, code, h.Get("Allow"), allow)
				}
			}
		}
	}
	e.wantError("PUT", "/api/nothing", "{}", http.StatusNotFound, "path")
}

// An error quotes the client's input bounded: a 1 MB value comes back as
// its first 80 characters and its length, not whole.
func TestErrorEchoBounded(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	big := strings.Repeat("7", 1<<20)
	cases := map[string]string{ // path → body
		"/api/data": "x,y\n1," + big + "\n2,3\n",
		"/api/runs": `{"data":"gap","method":"mfvi","controls":{"arch":"` + big[:60<<10-100] + `"}}`,
	}
	for path, body := range cases {
		ct := "application/json"
		if path == "/api/data" {
			ct = "text/csv"
		}
		code, ae, raw := e.errorOf("POST", path, body, map[string]string{"Content-Type": ct})
		if code != http.StatusBadRequest || ae.Field == "" {
			t.Fatalf("POST %s: %d %+v", path, code, ae)
		}
		if len(raw) > 2*maxMessage || strings.Contains(ae.Message, strings.Repeat("7", maxEcho+1)) {
			t.Errorf("POST %s: a %d-byte answer echoes the input: %.200s…", path, len(raw), ae.Message)
		}
	}
	// A quoted value within the bound is quoted whole, one past it cut.
	if got := boundEcho(`x "` + strings.Repeat("a", maxEcho) + `" y ` + strings.Repeat("b", maxEcho)); !strings.Contains(got, strings.Repeat("a", maxEcho)+`"`) {
		t.Errorf("a value of %d characters was cut: %q", maxEcho, got)
	}
	got := boundEcho(`x "` + strings.Repeat("é", maxEcho+1) + `"`)
	if want := `x "` + strings.Repeat("é", maxEcho-1) + `… (162 bytes)"`; got != want {
		t.Errorf("boundEcho = %q, want %q", got, want)
	}
}

// A sampler's run lists, and its frames carry, the traces of its own
// chains: .c1 and .c2 for chains = 2, not the spec's eight slots.
func TestRunTracesMatchChains(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}})
	var created wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"linreg","method":"nuts","controls":{"chains":2}}`, &created); code != http.StatusCreated {
		t.Fatalf("create: %d", code)
	}
	var info wire.RunInfo
	if code, _ := e.do("GET", "/api/runs/"+created.ID, "", "", &info); code != http.StatusOK {
		t.Fatalf("get: %d", code)
	}
	for _, traces := range [][]string{created.Traces, info.Traces} {
		var slots []string
		for _, name := range traces {
			if k, ok := chainSlot(name); ok {
				slots = append(slots, name[strings.LastIndex(name, "."):])
				if k > 2 {
					t.Errorf("trace %s of a 2-chain run", name)
				}
			}
		}
		if !slices.Contains(slots, ".c1") || !slices.Contains(slots, ".c2") || !slices.Contains(traces, "accept_rate") {
			t.Errorf("traces %v: want every parameter's .c1 and .c2, and accept_rate", traces)
		}
	}
	for name, want := range map[string]int{"b0.c1": 1, "w1[0,0].c12": 12, "sigma.c": 0, "accept_rate": 0, "x.cov": 0} {
		if k, ok := chainSlot(name); k != want || ok != (want > 0) {
			t.Errorf("chainSlot(%q) = %d %v, want %d", name, k, ok, want)
		}
	}
}
