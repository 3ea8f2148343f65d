//go:build !linux

package cputime

import "time"

// Thread is not read off Linux: ok is always false.
func Thread() (d time.Duration, ok bool) { return 0, false }
