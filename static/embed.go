// Package static holds the browser side of the playground: our JavaScript
// and CSS under app/, and the front-end packages the Makefile copies from npm
// into vendor/. Both are embedded in the binary.
package static

import "embed"

// Files holds app/ and vendor/, served under /static/.
//
//go:embed all:app all:vendor
var Files embed.FS
