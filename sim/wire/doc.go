// Package wire owns every JSON shape Posterior Playground sends to a
// browser or a script: the frames a run's viewers receive over the
// websocket (Frame, with its Band, Marks, Series and the family-specific
// Extras such as a sampler's DrawSet or a weight's WeightSet), the error
// message, and the nullable encodings of numbers JSON cannot hold.
//
// A run builds the shared parts of a frame once and seals them (Seal):
// their bytes are encoded in the run's goroutine, and every viewer's
// FrameEncoder splices the same bytes into its frame instead of encoding
// them again.
//
// # Extras
//
// A frame carries family-specific data as Extras: a key and a sealed
// payload. The browser keeps one view module per key (static/app/views.js)
// and hands it the payload of every frame that carries that key. Adding a
// view is one Go producer of an Extra (a method implementing sim.Views, or
// an engine recorder) and one JS module; neither the frame nor the stream
// changes.
//
// Non-finite numbers are written as null: JSON has no NaN.
package wire
