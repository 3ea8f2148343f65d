//go:build !race

package gp

const raceDetector = false
