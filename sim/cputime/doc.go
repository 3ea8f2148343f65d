// Package cputime reads the process's CPU time for benchmarks and load
// tests, and a thread's for the engine's fair turns between runs.
//
// The machine is shared with other jobs, so wall time measures the
// neighbours as much as the code: a benchmark that waits for a core reads
// slow. User + system CPU time counts only the work this process did, which
// is why benchmarks report it as cpu-ns/op next to Go's ns/op.
package cputime
