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
// target, the funnel by default) and ?methods=M1,M2 (gallery methods,
// at most 4 panels; NUTS beside mean-field VI by default). Each panel is
// a run created by POST /api/runs with a target instead of data: a
// built-in target's name with target_controls, or a density's text in
// Stan's notation (a mistake is a 400 naming target, its line and
// column first), a gallery method with its controls, and chains for a
// sampler. Its exact answer comes from the API's gallery.Cache.
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
package handlers
