package handlers

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/go-chi/chi/v5/middleware"
)

// ClientLimits caps what one client address may hold: the sessions it
// starts, and its runs, uploads, sweeps, exports in flight and streams,
// over all its sessions. Zero values take the defaults, sized so that a
// class of 60 behind one NAT still fits (the arithmetic is in doc.go).
type ClientLimits struct {
	SessionBurst int     // sessions an address may start at once, default 120
	SessionRate  float64 // sessions per second it may start after, default 1
	Runs         int     // runs an address holds, default 60
	Uploads      int     // uploaded files an address holds, default 28
	Sweeps       int     // sweeps an address runs at once, default 1
	Exports      int     // draws files an address downloads at once, default 4
	Streams      int     // run websockets and sweep event streams an address holds, default 480
}

func (c ClientLimits) withDefaults() ClientLimits {
	def := func(p *int, v int) {
		if *p <= 0 {
			*p = v
		}
	}
	def(&c.SessionBurst, 120)
	def(&c.Runs, 60)
	def(&c.Uploads, 28)
	def(&c.Sweeps, 1)
	def(&c.Exports, 4)
	def(&c.Streams, 480)
	if !(c.SessionRate > 0) {
		c.SessionRate = 1
	}
	return c
}

// clientAddr is the address a request's caps count against: the client's
// IP as the server's middleware found it (a trusted proxy's X-Forwarded-For
// with --trust-proxy, else the TCP peer), an IPv6 address as its /64, which
// one machine may own whole.
func clientAddr(r *http.Request) string {
	s := middleware.GetClientIP(r.Context())
	if s == "" {
		s = r.RemoteAddr
		if host, _, err := net.SplitHostPort(s); err == nil {
			s = host
		}
	}
	ip, err := netip.ParseAddr(s)
	if err != nil {
		return s
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// capError is a cap on what one client holds: a 429 naming field, saying
// what holds the slots and when one frees, with Retry-After.
type capError struct {
	field, message string
	retry          time.Duration
}

func (e *capError) Error() string { return e.field + ": " + e.message }

// retryAfter is d as a Retry-After value: whole seconds, at least 1.
func retryAfter(d time.Duration) string {
	return fmt.Sprint(max(1, int(math.Ceil(d.Seconds()))))
}

// inFlight counts what addresses hold while a request lasts (a stream, an
// export), against a cap per address and, when total > 0, in all.
type inFlight struct {
	mu    sync.Mutex
	n     map[string]int
	total int
}

// acquire takes a slot for addr unless it holds perAddr already or the
// total is at max (0: no total cap); release gives it back.
func (f *inFlight) acquire(addr string, perAddr, max int) (held int, ok bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n == nil {
		f.n = map[string]int{}
	}
	if held = f.n[addr]; held >= perAddr || (max > 0 && f.total >= max) {
		return held, false
	}
	f.n[addr]++
	f.total++
	return held + 1, true
}

func (f *inFlight) release(addr string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.n[addr]--; f.n[addr] <= 0 {
		delete(f.n, addr)
	}
	f.total--
}

// owned remembers which address made each run or sweep, to count what an
// address holds. The registries own their objects' lives: an id counts
// while live says it is held, so a slot frees the moment its run is
// deleted or expires, and forgotten ids are dropped as they are seen.
type owned struct {
	mu      sync.Mutex
	ids     map[string]map[string]struct{} // address → ids
	pending map[string]int                 // creates in progress, by address
}

// reserve takes a pending slot for addr unless it holds max already; held
// lists what it holds (the ids live reports held).
func (o *owned) reserve(addr string, max int, live func(id string) bool) (held []string, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.ids == nil {
		o.ids, o.pending = map[string]map[string]struct{}{}, map[string]int{}
	}
	for id := range o.ids[addr] {
		if live(id) {
			held = append(held, id)
		} else {
			delete(o.ids[addr], id)
		}
	}
	if len(o.ids[addr]) == 0 {
		delete(o.ids, addr)
	}
	if len(held)+o.pending[addr] >= max {
		return held, false
	}
	o.pending[addr]++
	return held, true
}

// done ends a reserve: id is held from now on, or, when "", the create
// failed.
func (o *owned) done(addr, id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.pending[addr]--; o.pending[addr] <= 0 {
		delete(o.pending, addr)
	}
	if id == "" {
		return
	}
	if o.ids[addr] == nil {
		o.ids[addr] = map[string]struct{}{}
	}
	o.ids[addr][id] = struct{}{}
}

// all lists every id remembered, with its address.
func (o *owned) all() map[string]string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := map[string]string{}
	for addr, ids := range o.ids {
		for id := range ids {
			out[id] = addr
		}
	}
	return out
}

// sessionRate lets each address start sessions as a token bucket: burst
// at once, then rate a second.
type sessionRate struct {
	burst float64
	rate  float64
	now   func() time.Time

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// take spends a token of addr's bucket; when none is left it says how long
// until one is.
func (s *sessionRate) take(addr string) (wait time.Duration, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	if s.buckets == nil {
		s.buckets = map[string]*bucket{}
	}
	if len(s.buckets) >= 4096 { // forget full buckets: they are as good as new
		for a, b := range s.buckets {
			if b.tokens+now.Sub(b.at).Seconds()*s.rate >= s.burst {
				delete(s.buckets, a)
			}
		}
	}
	b := s.buckets[addr]
	if b == nil {
		b = &bucket{tokens: s.burst, at: now}
		s.buckets[addr] = b
	}
	b.tokens = min(s.burst, b.tokens+now.Sub(b.at).Seconds()*s.rate)
	b.at = now
	if b.tokens < 1 {
		return time.Duration((1 - b.tokens) / s.rate * float64(time.Second)), false
	}
	b.tokens--
	return 0, true
}

type noSessionKey struct{}

// Sessions is the package's Sessions with this API's rate of new sessions
// per client address: past it, a request without a cookie is served with
// no session (pages, listings and watching need none) and may not create
// anything (requireSession).
func (a *API) Sessions(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if SessionOf(r) != "" || r.Context().Value(noSessionKey{}) != nil {
			next.ServeHTTP(w, r)
			return
		}
		if c, err := r.Cookie(sessionCookie); err == nil && validSessionID(c.Value) {
			Sessions(next).ServeHTTP(w, r)
			return
		}
		addr := clientAddr(r)
		wait, ok := a.sessionRate.take(addr)
		if ok {
			Sessions(next).ServeHTTP(w, r)
			return
		}
		err := &capError{field: "session", retry: wait, message: fmt.Sprintf(
			"your network address (%s) has started %d browser sessions lately, the most it may at once (then %g a second): this request came without the session cookie, so it cannot create anything; a new session can start in %s (enable cookies for this site, or wait)",
			addr, a.limits.SessionBurst, a.limits.SessionRate, wait.Round(100*time.Millisecond))}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), noSessionKey{}, err)))
	})
}

// requireSession answers 429 and returns false when the request has no
// session because its address starts too many (Sessions).
func (a *API) requireSession(w http.ResponseWriter, r *http.Request) bool {
	if err, ok := r.Context().Value(noSessionKey{}).(*capError); ok && SessionOf(r) == "" {
		writeErr(w, r, a.log, err)
		return false
	}
	return true
}

// ExportConfig bounds the draws files being written. Zero values take the
// defaults.
type ExportConfig struct {
	MaxInFlight int // draws files written at once in all, default 8
	// StepWait is how long an export waits for its run to finish a step
	// (the draws are copied between steps) before a 503, default 2 s.
	StepWait time.Duration
	// A download must keep up MinRate bytes a second (default 128 KiB,
	// about 1 Mbit/s) after a Grace (default 30 s): slower, and the
	// connection is closed short of its Content-Length.
	MinRate int
	Grace   time.Duration
}

func (c ExportConfig) withDefaults() ExportConfig {
	if c.MaxInFlight <= 0 {
		c.MaxInFlight = 8
	}
	if c.StepWait <= 0 {
		c.StepWait = 2 * time.Second
	}
	if c.MinRate <= 0 {
		c.MinRate = 128 << 10
	}
	if c.Grace <= 0 {
		c.Grace = 30 * time.Second
	}
	return c
}
