package web

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"
)

// The page loads only its own scripts, styles and connections: no inline
// script, style element or style attribute, no event-handler attribute
// (TestPagesNeedNoInlineCode checks the templates' output). Scripts may
// still set styles through the CSSOM (el.style.x = …), which CSP allows:
// uPlot and our modules do. Plots exported as PNG are data: and blob: URLs.
// connect-src 'self' covers the run's websocket on the same host (CSP 3);
// blob: lets a script read back an export it made (the browser test does).
const basePolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; " +
	"connect-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'self'"

// frameAncestorRE is the form --allow-frame-ancestor takes: a scheme, a host
// or a "*." wildcard over a domain's subdomains, an optional port; nothing
// that could end the directive.
var frameAncestorRE = regexp.MustCompile(`^https?://(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:[0-9]{1,5})?$`)

// contentSecurityPolicy returns the policy, with framing allowed for the
// page's own origin and the listed ones.
func contentSecurityPolicy(frameAncestors []string) (string, error) {
	anc := []string{"'self'"}
	for _, a := range frameAncestors {
		u, err := url.Parse(a)
		if err == nil && (u.Path == "/" || u.Path == "") && u.RawQuery == "" && u.Fragment == "" {
			a = strings.ToLower(u.Scheme + "://" + u.Host)
		}
		if err != nil || !frameAncestorRE.MatchString(a) {
			return "", fmt.Errorf("frame ancestor %q: want scheme://host[:port], the host perhaps *.domain", a)
		}
		anc = append(anc, a)
	}
	return basePolicy + "; frame-ancestors " + strings.Join(anc, " "), nil
}

// securityHeaders sets the headers every response carries. Without listed
// frame ancestors X-Frame-Options says the same as frame-ancestors 'self'
// to browsers that predate CSP 2; with some it is left out, since it cannot
// name them and would forbid what the policy allows.
func securityHeaders(csp string, framed bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Content-Security-Policy", csp)
			h.Set("X-Content-Type-Options", "nosniff")
			h.Set("Referrer-Policy", "same-origin")
			if !framed {
				h.Set("X-Frame-Options", "SAMEORIGIN")
			}
			next.ServeHTTP(w, r)
		})
	}
}
