//go:build !unix

package fbnn

// cpuTime is not measured off unix; the benchmark's cpu-ns/op then reads 0.
func cpuTime() int64 { return 0 }
