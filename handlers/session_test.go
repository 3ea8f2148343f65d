package handlers

import (
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/engine"
	"github.com/posterior-playground/playground/sim/wire"
)

// asSession returns a copy of e speaking as another browser session: a
// cookie jar of its own on the same server.
func asSession(t *testing.T, e *env) *env {
	t.Helper()
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	other := *e
	other.client = &http.Client{Transport: e.client.Transport, Jar: jar}
	return &other
}

// The session cookie is HttpOnly and SameSite=Lax, set once and kept.
func TestSessionCookie(t *testing.T) {
	e := newEnv(t, envOptions{})
	_, h, _ := e.roundTrip("GET", "/api/runs", "", nil)
	set := h.Get("Set-Cookie")
	for _, want := range []string{sessionCookie + "=", "HttpOnly", "SameSite=Lax", "Path=/"} {
		if !strings.Contains(set, want) {
			t.Errorf("Set-Cookie %q lacks %q", set, want)
		}
	}
	if _, h, _ := e.roundTrip("GET", "/api/runs", "", nil); h.Get("Set-Cookie") != "" {
		t.Errorf("a request with the cookie got a new one: %q", h.Get("Set-Cookie"))
	}
	// A forged or malformed cookie is replaced, not trusted.
	_, h, _ = e.roundTrip("GET", "/api/runs", "", map[string]string{"Cookie": sessionCookie + "=../../etc"})
	if !strings.Contains(h.Get("Set-Cookie"), sessionCookie+"=") {
		t.Error("a malformed session cookie was accepted")
	}
}

// Only the session that made a run may command or delete it; another may
// read it and watch it, and its commands are refused naming the session,
// over HTTP and over the stream, changing nothing.
func TestSessionOwnsItsRuns(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{})
	id := e.create()
	run, err := e.reg.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	other := asSession(t, e)

	var info wire.RunInfo
	if code, _ := other.do("GET", "/api/runs/"+id, "", "", &info); code != http.StatusOK || info.Yours {
		t.Fatalf("another session reading the run: %d, yours = %v; want 200 and false", code, info.Yours)
	}
	if code, _ := e.do("GET", "/api/runs/"+id, "", "", &info); code != http.StatusOK || !info.Yours {
		t.Fatalf("the owner reading the run: %d, yours = %v; want 200 and true", code, info.Yours)
	}
	other.wantError("POST", "/api/runs/"+id+"/ops", `{"op":"play"}`, http.StatusForbidden, "session")
	other.wantError("POST", "/api/runs/"+id+"/ops", `{"op":"set","name":"prior_scale","value":2}`, http.StatusForbidden, "session")
	got := other.wantError("DELETE", "/api/runs/"+id, "", http.StatusForbidden, "session")
	if !strings.Contains(got.Message, "watch") {
		t.Errorf("refusal %q does not say the run can be watched", got.Message)
	}

	// Over the stream: the other session watches, and its commands bounce.
	c := dial(t, other, id, nil)
	first := next(t, c)
	send(t, c, `{"op":"play"}`)
	if f := until(t, c, func(f inFrame) bool { return f.Type == "error" }); f.Field != "session" {
		t.Fatalf("a viewer's command: error naming %q (%q); want session", f.Field, f.Message)
	}
	if f := run.Latest(); f.Status != engine.StatusPaused || f.Step != first.Step || f.Controls["prior_scale"].Num != first.Controls["prior_scale"] {
		t.Fatalf("after refused commands the run is %s at step %d; want it unchanged (paused at %d)", f.Status, f.Step, first.Step)
	}

	// The owner's commands still work, and the viewer sees them.
	if code, _ := e.do("POST", "/api/runs/"+id+"/ops", "application/json", `{"op":"set","name":"prior_scale","value":2}`, nil); code/100 != 2 {
		t.Fatalf("the owner's set: %d", code)
	}
	until(t, c, func(f inFrame) bool { return f.Type == "frame" && f.Controls["prior_scale"] == 2 })
	if code, _ := e.do("DELETE", "/api/runs/"+id, "", "", nil); code != http.StatusNoContent {
		t.Fatalf("the owner's delete: %d", code)
	}
}

// GET /api/runs lists the asking session's runs, and only those; the run
// cap counts per session, so one browser's full quota leaves another's.
func TestSessionRunsAndCaps(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{registry: engine.RegistryConfig{MaxRuns: 5, MaxRunsPerClient: 2}})
	other := asSession(t, e)
	mine := []string{e.create(), e.create()}
	got := e.wantError("POST", "/api/runs", `{"data":"d","method":"fake"}`, http.StatusTooManyRequests, "runs")
	for _, want := range []string{"2 runs open", "close a panel or a tab", "Your runs", "within a minute"} {
		if !strings.Contains(got.Message, want) {
			t.Errorf("429 %q does not say %q", got.Message, want)
		}
	}
	theirs := other.create()
	var list []wire.RunBrief
	if code, _ := e.do("GET", "/api/runs", "", "", &list); code != http.StatusOK || len(list) != 2 {
		t.Fatalf("GET /api/runs: %d %+v; want my 2 runs", code, list)
	}
	for _, r := range list {
		if r.ID == theirs || (r.ID != mine[0] && r.ID != mine[1]) {
			t.Errorf("my list has %s; mine are %v", r.ID, mine)
		}
	}
	if code, _ := other.do("GET", "/api/runs", "", "", &list); code != http.StatusOK || len(list) != 1 || list[0].ID != theirs {
		t.Fatalf("the other session's list: %d %+v; want only %s", code, list, theirs)
	}
	// Freeing one of mine makes room for me again.
	if code, _ := e.do("DELETE", "/api/runs/"+mine[0], "", "", nil); code != http.StatusNoContent {
		t.Fatalf("delete: %d", code)
	}
	e.create()
}

// Over HTTP: another session uploading until the store is full cannot
// evict my upload; its next file is refused with a 429 naming data, and
// my file still starts runs.
func TestSessionUploadsAreNotEvictedByOthers(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{factory: NewFactory, api: APIConfig{Specs: catalog.Specs}}) // a store of 4 uploads in all
	other := asSession(t, e)
	csv := "x,y\n1,2\n2,3\n3,5\n4,4\n"
	var mine wire.Upload
	if code, _ := e.do("POST", "/api/data", "text/csv", csv, &mine); code != http.StatusCreated {
		t.Fatalf("my upload: %d", code)
	}
	refused := false
	for i := range 8 {
		var up wire.Upload
		code, _ := other.do("POST", "/api/data", "text/csv", csv, &up)
		if code == http.StatusTooManyRequests {
			refused = true
			break
		}
		if code != http.StatusCreated {
			t.Fatalf("their upload %d: %d", i, code)
		}
	}
	if !refused {
		t.Error("another session uploaded 8 files into a store of 4 without a refusal")
	}
	other.wantError("POST", "/api/data", csv, http.StatusTooManyRequests, "data")
	var created wire.RunCreated
	if code, _ := e.do("POST", "/api/runs", "application/json", `{"data":"`+mine.Data+`","method":"map"}`, &created); code != http.StatusCreated {
		t.Fatalf("a run on my upload after theirs: %d; my file was evicted", code)
	}
}
