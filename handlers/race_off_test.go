//go:build !race

package handlers

const raceEnabled = false
