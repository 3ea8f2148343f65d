package fastblas

// fmaPeak (peak_amd64.s, written by internal/asmgen/peak) is the probe
// behind BenchmarkFMAPeak: the machine's one-core FMA throughput, against
// which the GEMM benchmarks report their share of peak.

//go:generate go run -C internal/asmgen ./peak -out ../../peak_amd64.s -stubs ../../peak_amd64.go -pkg fastblas
