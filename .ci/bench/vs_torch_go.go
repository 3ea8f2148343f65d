//go:build ignore

// vs_torch_go is the Go side of .ci/bench/vs-torch: it writes the gap data
// set the CLI trains on, and trains gip or mfvi on it as `playground run`
// does, timing the steps by the process's CPU time.
//
//	go run vs_torch_go.go data -data-seed 1 -out gap.csv
//	go run vs_torch_go.go run -method gip -steps 2000 -seed 1 -data-seed 1 -eval-reps 20
//
// run prints one JSON object: steps per CPU-second over the timed steps,
// and the mean and standard error of eval-reps single-sample ELBO
// estimates after training (nats, whole data set, model units).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/catalog"
	"github.com/posterior-playground/playground/sim/cputime"
	"github.com/posterior-playground/playground/sim/datasets"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: vs_torch_go data|run [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "data":
		err = writeData(os.Args[2:])
	case "run":
		err = run(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q (data, run)", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "vs_torch_go:", err)
		os.Exit(1)
	}
}

// writeData writes gap's standardised x and y (the model units every
// method trains in) as CSV with %.17g, so the reader gets the same float64s.
func writeData(args []string) error {
	fs := flag.NewFlagSet("data", flag.ExitOnError)
	seed := fs.Uint64("data-seed", 1, "the data set's seed")
	out := fs.String("out", "", "CSV file to write")
	fs.Parse(args)
	d, err := datasets.Load("gap", *seed)
	if err != nil {
		return err
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	fmt.Fprintln(f, "x,y")
	for i := range d.X {
		fmt.Fprintf(f, "%.17g,%.17g\n", d.X[i], d.Y[i])
	}
	return f.Close()
}

func run(args []string) error {
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	method := fs.String("method", "gip", "gip or mfvi")
	steps := fs.Int("steps", 2000, "timed training steps")
	warm := fs.Int("warmup", 20, "untimed steps first")
	seed := fs.Uint64("seed", 1, "the method's seed")
	dataSeed := fs.Uint64("data-seed", 1, "the data set's seed")
	reps := fs.Int("eval-reps", 20, "single-sample ELBO estimates after training")
	fs.Parse(args)

	d, err := datasets.Load("gap", *dataSeed)
	if err != nil {
		return err
	}
	m, err := catalog.NewMethod(*method, "")
	if err != nil {
		return err
	}
	if _, err := sim.Init(m, d, nil, numeric.NewStream(*seed, sim.StreamRun)); err != nil {
		return err
	}
	runtime.GC()
	for range *warm {
		m.Step()
	}
	c0 := cputime.Process()
	for range *steps {
		m.Step()
	}
	cpu := (cputime.Process() - c0).Seconds()

	elbo := sim.ExtrasOf(m).ELBO
	if elbo == nil {
		return fmt.Errorf("%s has no ELBO", *method)
	}
	var s, s2 float64
	for range *reps {
		e := elbo()
		s += e
		s2 += e * e
	}
	n := float64(*reps)
	mean := s / n
	se := math.Sqrt(max(s2/n-mean*mean, 0) / max(n-1, 1))
	return json.NewEncoder(os.Stdout).Encode(map[string]any{
		"method": *method, "steps": *warm + *steps, "cpu_s": cpu,
		"steps_per_cpu_s": float64(*steps) / cpu, "elbo": mean, "elbo_se": se,
		"gomaxprocs": runtime.GOMAXPROCS(0),
	})
}
