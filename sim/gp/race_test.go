//go:build race

package gp

// raceDetector is set under the race detector, whose tenfold slowdown the
// long single-goroutine training tests skip: sim/gp starts no goroutine, so
// in them the detector has nothing to find (make test and make check run
// them).
const raceDetector = true
