//go:build race

package scenario

// raceEnabled: the test binary runs under the race detector.
const raceEnabled = true
