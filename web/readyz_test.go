package web

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"
)

// /readyz answers 200 while serving, GET and HEAD; on shutdown it fails
// (503) first, for DrainDelay, while /healthz still answers 200 and the
// server still serves; then the server stops.
func TestReadyzFailsFirstOnShutdown(t *testing.T) {
	s := newServer(t, Config{DrainDelay: time.Second})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() { errc <- s.Serve(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	status := func(method, path string) int {
		t.Helper()
		req, _ := http.NewRequest(method, base+path, nil)
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	for _, m := range []string{http.MethodGet, http.MethodHead} {
		if c := status(m, "/readyz"); c != http.StatusOK {
			t.Fatalf("%s /readyz while serving: %d", m, c)
		}
		if c := status(m, "/healthz"); c != http.StatusOK {
			t.Fatalf("%s /healthz while serving: %d", m, c)
		}
	}
	cancel()
	// Shutdown starts with draining: /readyz fails on the next requests
	// while the listener still accepts, for the drain delay.
	deadline := time.Now().Add(5 * time.Second)
	for status(http.MethodGet, "/readyz") != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatal("/readyz never failed after shutdown began")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if c := status(http.MethodHead, "/readyz"); c != http.StatusServiceUnavailable {
		t.Fatalf("HEAD /readyz while draining: %d", c)
	}
	if c := status(http.MethodGet, "/healthz"); c != http.StatusOK {
		t.Fatalf("/healthz while draining: %d (it is liveness: it stays 200)", c)
	}
	client.CloseIdleConnections()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("Serve did not return after the drain")
	}
}
