//go:build race

package handlers

// raceEnabled: the test binary runs under the race detector.
const raceEnabled = true
