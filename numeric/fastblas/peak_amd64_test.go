//go:build !purego

package fastblas

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/posterior-playground/playground/sim/cputime"
)

// peakRound is fmaPeak's work per round: twelve FMAs on four lanes.
const peakRound = 12 * 4 * 2

// TestFMAPeakSums checks the probe does the arithmetic it claims: with
// a = 1 and b = ½ every partial sum is a multiple of ½ below 2⁵³, so each
// lane is exactly 12·n·½.
func TestFMAPeakSums(t *testing.T) {
	if !hasKernels {
		t.Skip("no AVX2/FMA")
	}
	for _, n := range []int{1, 2, 7, 1000} {
		var out [4]float64
		fmaPeak(n, 1, 0.5, &out)
		for i, v := range out {
			if want := 6 * float64(n); v != want {
				t.Errorf("n = %d: lane %d is %g, want %g", n, i, v, want)
			}
		}
	}
}

// threadCPU runs f with the goroutine locked to its thread and returns the
// thread's CPU time, or the wall time where the thread clock is missing.
// CPU time, because the machine may be shared: time spent descheduled is
// not the kernel's.
func threadCPU(f func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, ok := cputime.Thread()
	start := time.Now()
	f()
	if c1, ok1 := cputime.Thread(); ok && ok1 {
		return c1 - c0
	}
	return time.Since(start)
}

// fmaPeakGFLOPS measures one core's FMA throughput: the best of a few
// bursts of about 20 ms of thread CPU time each, since a busy sibling
// hyperthread or a migration can only slow a burst down.
func fmaPeakGFLOPS() float64 {
	const rounds = 1 << 14
	best := 0.0
	for range 5 {
		var out [4]float64
		calls := 0
		d := threadCPU(func() {
			for c0, _ := cputime.Thread(); ; calls++ {
				fmaPeak(rounds, 1, 0.5, &out)
				if c, _ := cputime.Thread(); c-c0 > 20*time.Millisecond || calls > 1e5 {
					break
				}
			}
		})
		best = max(best, float64(calls+1)*rounds*peakRound/d.Seconds()/1e9)
	}
	return best
}

// BenchmarkFMAPeak reports one core's double-precision FMA throughput
// (GFLOP/s per thread CPU-second): the ceiling of every GEMM benchmark.
func BenchmarkFMAPeak(b *testing.B) {
	if !hasKernels {
		b.Skip("no AVX2/FMA")
	}
	const rounds = 1 << 12
	var out [4]float64
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, _ := cputime.Thread()
	for b.Loop() {
		fmaPeak(rounds, 1, 0.5, &out)
	}
	c1, _ := cputime.Thread()
	b.ReportMetric(float64(b.N)*rounds*peakRound/(c1-c0).Seconds()/1e9, "GFLOP/s")
}

// BenchmarkGIPGemmPeak times fastblas's Dgemm on the products of a GIP
// training step at its defaults (M = N = 100 inducing and data rows, the
// 50-unit hidden layer with its ones column: n = 51 inputs, d = 50
// outputs), by thread CPU time, and reports each as GFLOP/s and as a
// percentage of BenchmarkFMAPeak's figure measured in the same run.
func BenchmarkGIPGemmPeak(b *testing.B) {
	if !hasKernels {
		b.Skip("no AVX2/FMA")
	}
	peak := fmaPeakGFLOPS()
	impl := Implementation()
	for _, s := range []struct {
		what    string
		tA, tB  bool
		m, n, k int
	}{
		{"gram", true, false, 51, 51, 100},     // ΦᵀΛΦ (computed as blocks of its lower triangle)
		{"rhs", true, false, 51, 50, 100},      // ΦᵀΛV, and the gradient ΦᵀdU
		{"forward", false, false, 100, 50, 51}, // ΦW and F̃W
		{"dphi", false, true, 100, 51, 50},     // dU Wᵀ
	} {
		name := fmt.Sprintf("%s/%s%s/%dx%dx%d", s.what, tname(s.tA), tname(s.tB), s.m, s.k, s.n)
		g := newGemmCase(rand.New(rand.NewPCG(3, 3)), s.tA, s.tB, s.m, s.n, s.k, 1, 0, 0)
		b.Run(name, func(b *testing.B) {
			d := threadCPU(func() {
				for b.Loop() {
					impl.Dgemm(trans(g.tA), trans(g.tB), g.m, g.n, g.k, 1, g.a, g.lda, g.b, g.ldb, 0, g.c, g.ldc)
				}
			})
			gf := 2 * float64(s.m*s.n*s.k) * float64(b.N) / d.Seconds() / 1e9
			b.ReportMetric(gf, "GFLOP/s")
			b.ReportMetric(peak, "peak-GFLOP/s")
			b.ReportMetric(100*gf/peak, "%peak")
		})
	}
}
