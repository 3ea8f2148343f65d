package experiment

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
)

// MaxSweepRuns caps values × seeds in one sweep.
const MaxSweepRuns = 1000

// SweepPoint is the result for one value of the swept control. With one
// seed, the standard errors are those of the evaluations (Summary); with
// several seeds, the means are over seeds and the standard errors are the
// population std of the seeds' means over √seeds.
type SweepPoint struct {
	Index    int     `json:"index"` // position of Value in the swept values
	Value    float64 `json:"value"`
	ELBOMean float64 `json:"elbo_mean"`
	ELBOSE   float64 `json:"elbo_se"`
	IWBOMean float64 `json:"iwbo_mean"`
	IWBOSE   float64 `json:"iwbo_se"`
	Seeds    int     `json:"seeds"`
}

// SweepProgress is called as runs finish, with the finished point when all
// seeds of a value are in (else nil).
type SweepProgress func(finished, total int, p *SweepPoint)

// Sweep runs base once per value of param and per training seed (base.Seed,
// base.Seed+1, …) on one data set (base's data seed), in parallel over
// workers goroutines (≤ 0: one per core).
func Sweep(ctx context.Context, base Config, param string, values []float64, seeds, workers int, progress SweepProgress) ([]SweepPoint, error) {
	prepared, err := prepareSweep(base, param, values, seeds)
	if err != nil {
		return nil, err
	}
	runs, err := runSweep(ctx, prepared, values, workers, allRuns, progress)
	if err != nil {
		return nil, err
	}
	points := make([]SweepPoint, len(values))
	for i := range points {
		points[i] = aggregate(i, values[i], runs[i])
	}
	return points, nil
}

// allRuns selects every (value, seed) pair of a sweep.
func allRuns(int) bool { return true }

// prepareSweep validates every configuration of a sweep before any work
// starts. It loads the data set once: all runs share it (see prepare).
func prepareSweep(base Config, param string, values []float64, seeds int) ([][]*Prepared, error) {
	if seeds < 1 || len(values)*seeds > MaxSweepRuns {
		return nil, &sim.FieldError{Field: "seeds", Message: fmt.Sprintf("values × seeds must be in [1, %d]", MaxSweepRuns)}
	}
	if len(values) == 0 {
		return nil, &sim.FieldError{Field: "values", Message: "no values to sweep"}
	}
	base.DataSeed = int64(base.DataSeedUsed())
	if err := base.validate(); err != nil { // the runs differ only in seed and controls
		return nil, err
	}
	d, err := base.load()
	if err != nil {
		return nil, err
	}
	prepared := make([][]*Prepared, len(values))
	for i, v := range values {
		prepared[i] = make([]*Prepared, seeds)
		for s := range seeds {
			cfg := base
			cfg.Seed = base.Seed + uint64(s)
			cfg.Controls = sim.Controls{}
			for k, c := range base.Controls {
				cfg.Controls[k] = c
			}
			cfg.Controls[param] = sim.Num(v)
			p, err := prepare(cfg, d)
			if err != nil {
				return nil, err
			}
			if sim.ExtrasOf(p.method).IWBO == nil {
				return nil, &sim.FieldError{Field: "method", Message: fmt.Sprintf("%s has no evidence bound to sweep", base.Method)}
			}
			prepared[i][s] = p
		}
	}
	return prepared, nil
}

// runSweep runs prepared[i][s] (value i, seed s) for the pairs whose index
// i·seeds + s keep selects, over workers goroutines, and returns each run's
// bounds (zero for a pair not selected). progress is told of a point when
// all of its seeds are in, and only when every pair was selected.
func runSweep(ctx context.Context, prepared [][]*Prepared, values []float64, workers int, keep func(int) bool, progress SweepProgress) ([][]runBounds, error) {
	seeds := len(prepared[0])
	total := 0
	for j := range len(values) * seeds {
		if keep(j) {
			total++
		}
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}

	type job struct{ i, s int }
	jobs := make(chan job)
	results := make([][]runBounds, len(values))
	for i := range results {
		results[i] = make([]runBounds, seeds)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		finished int
		left     = make([]int, len(values))
	)
	for i := range left {
		left[i] = seeds
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				sum, err := prepared[j.i][j.s].Run(ctx, nil)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
						cancel()
					}
					mu.Unlock()
					continue
				}
				results[j.i][j.s] = boundsOf(sum)
				finished++
				left[j.i]--
				var done *SweepPoint
				if left[j.i] == 0 && total == len(values)*seeds {
					p := aggregate(j.i, values[j.i], results[j.i])
					done = &p
				}
				if progress != nil {
					progress(finished, total, done)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for i := range values {
		for s := range seeds {
			if !keep(i*seeds + s) {
				continue
			}
			select {
			case jobs <- job{i, s}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return results, nil
}

// runBounds is what a sweep keeps of one run: its bounds and their standard
// errors over the evaluations.
type runBounds struct {
	ELBOMean float64 `json:"elbo_mean"`
	ELBOSE   float64 `json:"elbo_se"`
	IWBOMean float64 `json:"iwbo_mean"`
	IWBOSE   float64 `json:"iwbo_se"`
}

func boundsOf(s *Summary) runBounds {
	return runBounds{*s.ELBOMean, *s.ELBOSE, *s.IWBOMean, *s.IWBOSE}
}

// aggregate makes value i's point from its runs, in seed order (the order
// fixes the last bits of the means, so a merged sweep equals a whole one).
func aggregate(i int, v float64, runs []runBounds) SweepPoint {
	p := SweepPoint{Index: i, Value: v, Seeds: len(runs)}
	if len(runs) == 1 {
		r := runs[0]
		p.ELBOMean, p.ELBOSE, p.IWBOMean, p.IWBOSE = r.ELBOMean, r.ELBOSE, r.IWBOMean, r.IWBOSE
		return p
	}
	elbos := make([]float64, len(runs))
	iwbos := make([]float64, len(runs))
	for i, r := range runs {
		elbos[i], iwbos[i] = r.ELBOMean, r.IWBOMean
	}
	p.ELBOMean, p.ELBOSE = numeric.MeanSE(elbos)
	p.IWBOMean, p.IWBOSE = numeric.MeanSE(iwbos)
	return p
}

// ParseValues reads a comma list ("1,2,5"), "linspace:a:b:n" or
// "logspace:a:b:n" (n values from a to b, evenly spaced in log a … log b).
func ParseValues(s string) ([]float64, error) {
	bad := func(msg string) error {
		return &sim.FieldError{Field: "values", Message: msg + ` (want "1,2,5", "linspace:a:b:n" or "logspace:a:b:n")`}
	}
	if kind, rest, ok := strings.Cut(s, ":"); ok {
		parts := strings.Split(rest, ":")
		if len(parts) != 3 {
			return nil, bad(fmt.Sprintf("%q needs three fields after %s:", s, kind))
		}
		a, errA := strconv.ParseFloat(parts[0], 64)
		b, errB := strconv.ParseFloat(parts[1], 64)
		n, errN := strconv.Atoi(parts[2])
		if errA != nil || errB != nil || errN != nil || n < 1 || n > MaxSweepRuns {
			return nil, bad(fmt.Sprintf("cannot read %q", s))
		}
		out := make([]float64, n)
		switch kind {
		case "linspace":
			for i := range out {
				out[i] = lerp(a, b, i, n)
			}
		case "logspace":
			if a <= 0 || b <= 0 {
				return nil, bad("logspace bounds must be positive")
			}
			for i := range out {
				out[i] = math.Exp(lerp(math.Log(a), math.Log(b), i, n))
			}
		default:
			return nil, bad(fmt.Sprintf("unknown spacing %q", kind))
		}
		// The ends are a and b exactly: interpolated, the last can land a
		// rounding error past b (linspace:0:0.99:12 gave 0.9900000000000001),
		// outside a control's range that ends at b.
		out[0], out[n-1] = a, b
		return out, nil
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, bad(fmt.Sprintf("%q is not a number", f))
		}
		out = append(out, v)
	}
	if len(out) > MaxSweepRuns {
		return nil, bad("too many values")
	}
	return out, nil
}

func lerp(a, b float64, i, n int) float64 {
	if n == 1 {
		return a
	}
	return a + (b-a)*float64(i)/float64(n-1)
}
