// Package handlers holds the HTTP and websocket handlers: the pages, the
// JSON API and the run stream. A handler decodes a request, checks it,
// calls the engine, the catalog or the sweeps, and encodes the answer in
// package wire's shapes; it knows nothing about server assembly (package
// web) and holds no inference.
//
// # Pages
//
// GET / is the gallery of scenarios; GET /play is the dashboard. A play
// link holds the whole experiment in its query: data, methods (at most 4
// panels), seed, scenario, hide and focus (controls to hide or highlight),
// present=1 (presentation mode), METHOD.model and METHOD.CONTROL values,
// METHOD.replay (a run's state: STEP then ,STEP:NAME:VALUE per change, the
// run replayed there by the engine), METHOD.watch (another session's run,
// watched read-only) and edit (edited data). A bad parameter is a page
// error naming it and what is allowed.
//
// GET /gallery is the two-dimensional gallery: ?target=NAME (a built-in
// target, the funnel by default, or a density's text) with its controls by
// name, ?methods=M1,M2 (gallery methods, at most 4 panels; NUTS beside
// mean-field VI by default), seed, scenario and present=1, and per panel i
// (from 1) its controls as pI.NAME, its own values of target controls as
// pI.target.NAME, and pI.replay or pI.watch as on the play page; the page
// writes the same query for its links. Each panel is a run created by POST
// /api/runs with a target instead of data: a built-in target's name with
// target_controls, or a density's text in Stan's notation (a mistake is a
// 400 naming target, its line and column first), a gallery method with its
// controls, and chains for a sampler. Its exact answer comes from the
// API's gallery.Cache.
//
// An edit is a delta against the page's data set, so that a few clicks
// make a short link and the data set's own points stay exact: the
// base64url (unpadded) of a version byte, the data set's point count N
// (uint16 little-endian), ⌈N/8⌉ bytes of removal bits and, per added or
// moved point, x and y as float32 little-endian in the user's units; at
// most MaxEditAdded points and MaxEditChars characters, so that a data
// command carrying it fits a viewer's 4 KiB message (FuzzDataEdit,
// TestDataEditFitsReadLimit).
//
// # Streams
//
// A run's hub encodes each frame once per tick and writes it to every
// viewer as one prepared websocket message; StreamConfig sets the write
// and pong deadlines, the wait for a command's answer and the pace of a
// crowded run. Package web's documentation lists the limits and the tests
// behind them.
//
// # What a run may cost
//
// The registry admits runs by cost (engine.Budget): a run on data or on a
// target, and every command that would make a run dearer (a control set,
// a data edit), is estimated before it is built or taken. A run dearer
// than one run may be — its memory, a step's arithmetic, or that between
// two checks for a stop — is a 422 naming the control to lower first, its
// message what the run needs, what the server allows and what to lower: the
// request itself is unprocessable here, and sending it again will not
// help. A run that fits its own bounds but not what the other runs leave
// of the budget of all runs is a 429 with Retry-After: it is the server's
// load, and it frees as runs end. On a stream both are an error frame
// naming the field, as any refused command.
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
