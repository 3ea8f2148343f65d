package handlers

import (
	"net/http"
	"testing"

	"github.com/posterior-playground/playground/sim/wire"
)

// send sends body with the given Content-Type and Origin ("" leaves a
// header out) and returns the status and the decoded error, if any.
func (e *env) send(method, path, contentType, origin, body string) (int, wire.APIError) {
	e.t.Helper()
	code, ae, _ := e.errorOf(method, path, body, map[string]string{"Content-Type": contentType, "Origin": origin})
	return code, ae
}

// A page on another site can send a text/plain POST without a preflight:
// such writes, and any write naming a foreign Origin, are refused before
// they touch anything.
func TestCrossSiteWritesRefused(t *testing.T) {
	checkLeaks(t)
	e := newEnv(t, envOptions{api: APIConfig{AllowedOrigins: []string{"https://lab.example"}}})
	const create = `{"data":"d","method":"fake"}`
	self := e.srv.URL // the page's own origin: scheme://host:port of the server
	refused := []struct {
		method, path, ct, origin, body string
		status                         int
		field                          string
	}{
		{"POST", "/api/runs", "text/plain", "http://evil.example", create, 403, "origin"},
		{"POST", "/api/runs", "application/json", "http://evil.example", create, 403, "origin"},
		{"POST", "/api/runs", "application/json", "null", create, 403, "origin"}, // sandboxed frames, file:
		{"POST", "/api/runs", "text/plain", "", create, 415, "content-type"},
		{"POST", "/api/runs", "text/plain", self, create, 415, "content-type"},
		{"POST", "/api/runs", "application/x-www-form-urlencoded", "", create, 415, "content-type"},
		{"POST", "/api/runs", "", "", create, 415, "content-type"},
		{"POST", "/api/runs", "application/json-seq", "", create, 415, "content-type"},
		{"POST", "/api/data", "text/plain", "", "x,y\n1,2\n2,3\n", 415, "content-type"},
		{"POST", "/api/data", "application/json", "", "x,y\n1,2\n2,3\n", 415, "content-type"},
		{"POST", "/api/data", "text/csv", "http://evil.example", "x,y\n1,2\n2,3\n", 403, "origin"},
	}
	for _, c := range refused {
		code, ae := e.send(c.method, c.path, c.ct, c.origin, c.body)
		if code != c.status || ae.Field != c.field || ae.Message == "" {
			t.Errorf("%s %s type %q origin %q: %d %+v, want %d naming %q", c.method, c.path, c.ct, c.origin, code, ae, c.status, c.field)
		}
	}
	if n := e.reg.Len(); n != 0 {
		t.Fatalf("%d runs after refused creates", n)
	}

	for _, origin := range []string{"", self, "https://lab.example", "HTTPS://LAB.EXAMPLE"} {
		if code, ae := e.send("POST", "/api/runs", "application/json; charset=utf-8", origin, create); code != http.StatusCreated {
			t.Fatalf("create from origin %q: %d %+v", origin, code, ae)
		}
	}
	if code, ae := e.send("POST", "/api/data", "text/csv; charset=utf-8", self, "x,y\n1,2\n2,3\n3,5\n"); code != http.StatusCreated {
		t.Fatalf("upload: %d %+v", code, ae)
	}

	id := e.create()
	path := "/api/runs/" + id
	if code, ae := e.send("POST", path+"/ops", "text/plain", "", `{"op":"play"}`); code != 415 || ae.Field != "content-type" {
		t.Fatalf("text/plain op: %d %+v", code, ae)
	}
	if code, ae := e.send("DELETE", path, "", "http://evil.example", ""); code != 403 || ae.Field != "origin" {
		t.Fatalf("cross-site delete: %d %+v", code, ae)
	}
	if code, ae := e.send("DELETE", path, "text/plain", "", "x"); code != 415 || ae.Field != "content-type" {
		t.Fatalf("delete with a text body: %d %+v", code, ae)
	}
	if _, err := e.reg.Get(id); err != nil {
		t.Fatalf("the run went after refused deletes: %v", err)
	}
	// What the page's discard() sends: a DELETE with no body and no type.
	if code, ae := e.send("DELETE", path, "", self, ""); code != http.StatusNoContent {
		t.Fatalf("delete: %d %+v", code, ae)
	}
}
