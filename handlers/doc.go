// Package handlers holds the HTTP and websocket handlers: the pages, the JSON
// API and the run stream. It builds on sim for runs and on templates for
// HTML, and knows nothing about server assembly.
//
// # What one client may hold
//
// Runs, uploads and sweeps belong to a browser session (a cookie), and the
// registries cap them per session: 8 runs, 4 uploads, 1 sweep. A request
// without the cookie starts a new session, so those caps alone let one
// cookieless client take everything. ClientLimits therefore caps, per
// client address (the TCP peer, or with --trust-proxy the proxy's
// X-Forwarded-For; an IPv6 address by its /64), what all its sessions hold
// together. The defaults are sized for a class of 60 behind one NAT, every
// student one address:
//
//   - sessions started: 120 at once, then 1 a second. 60 students each open
//     the page, and each perhaps a second browser or a private window: 120.
//     A browser keeps its cookie after that, so 1 a second (60 a minute)
//     lets the whole class come back cookieless within a minute. Past the
//     rate a request is served without a session — pages, listings and
//     watching need none — and may not create anything: 429 naming
//     session, saying when the next may start.
//   - runs: 60 of the server's 64. 60 students × 1 run each, or 30 × 2 as
//     the lab test has it, fit; the other 4 stay for clients elsewhere (the
//     lecturer's machine on another network). A server raised past 64 runs
//     for several classes keeps each address to 60.
//   - uploads: 28 of the store's 32: a 4-upload session's share stays for
//     elsewhere. An upload is at most 1 MiB and 10,000 rows.
//   - sweeps: 1 of the server's 2. A sweep takes all cores but one, so two at
//     once are the server's capacity; a class shares one, another address
//     the other.
//   - draws downloads in flight: 4 per address, 8 in all. A file of a
//     typical run (4 chains × 1,000 draws) is a few hundred kilobytes,
//     written in milliseconds, so 60 students pressing at once pass through 4 slots in
//     about a second, each refusal a 429 with Retry-After: 2; a 45 MB file
//     (8 chains × 100,000 draws) holds its slot for as long as its reader
//     takes, at most 30 s + 45 MB ÷ 128 KiB/s ≈ 6 minutes (ExportConfig).
//   - streams (run websockets and sweep event streams): 480. 60 students ×
//     4 panels × 2 tabs = 480; the lecture test's 300 viewers on loopback
//     fit. A stream costs its write buffer (16 KiB) and two goroutines, so
//     480 are about 10 MB.
//
// A slot frees the moment what holds it ends: a run when it is deleted or
// expires (the registry is asked, not a copy of it), a sweep when it ends,
// a stream or download when its connection closes. Each 429 says what
// holds the slots and when one frees, with Retry-After: how many of the
// held runs are watched (kept while watched) and how many free within the
// expiry; when the least recently used upload is dropped; that a sweep
// frees when it finishes.
package handlers
