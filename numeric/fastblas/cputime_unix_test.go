//go:build unix

package fastblas

import (
	"syscall"
	"time"
)

// processCPU is the process's user and system CPU time: on a shared
// machine a benchmark's wall time also counts the time it waited.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
