// Command tool is the Go side of nuts-vs-stan: it writes a built-in data
// set as a CSV and measures draws CSVs with the project's own bulk ESS, so
// that Stan's draws and the playground's are judged by one implementation.
//
//	go run tool.go data NAME SEED FILE   write the data set's x, y (model units)
//	go run tool.go ess FILE              print the smallest bulk ESS, then each parameter's
//	go run tool.go report FILE           the same from a 2-D target run's --json report
//
// FILE for ess is a draws table: columns .chain, .iteration, .draw, then the
// parameters, as playground run --draws writes it.
package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/datasets"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tool:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	switch {
	case len(args) == 4 && args[0] == "data":
		seed, err := strconv.ParseUint(args[2], 10, 64)
		if err != nil {
			return fmt.Errorf("seed: %w", err)
		}
		return writeData(args[1], seed, args[3])
	case len(args) == 2 && args[0] == "ess":
		return printESS(args[1])
	case len(args) == 2 && args[0] == "report":
		return printReportESS(args[1])
	}
	return fmt.Errorf("usage: tool data NAME SEED FILE | tool ess FILE | tool report FILE")
}

func writeData(name string, seed uint64, path string) error {
	d, err := datasets.Load(name, seed)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := csv.NewWriter(f)
	w.Write([]string{"x", "y"})
	for i, x := range d.X {
		// 'g', -1: the shortest text that reads back as the same float64.
		w.Write([]string{strconv.FormatFloat(x, 'g', -1, 64), strconv.FormatFloat(d.Y[i], 'g', -1, 64)})
	}
	w.Flush()
	if err := w.Error(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// printESS reads a draws table and prints numeric.ESSBulk of every
// parameter over its chains, the smallest first.
func printESS(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return err
	}
	if len(rows) < 2 || len(rows[0]) < 4 || rows[0][0] != ".chain" {
		return fmt.Errorf("%s: want a header .chain,.iteration,.draw,PARAM... and draws", path)
	}
	names := rows[0][3:]
	// chains[c][j] holds parameter j's draws of chain c, in file order.
	var chains [][][]float64
	index := map[string]int{}
	for r, row := range rows[1:] {
		c, ok := index[row[0]]
		if !ok {
			c = len(chains)
			index[row[0]] = c
			chains = append(chains, make([][]float64, len(names)))
		}
		for j := range names {
			v, err := strconv.ParseFloat(row[3+j], 64)
			if err != nil {
				return fmt.Errorf("%s row %d, %s: %w", path, r+2, names[j], err)
			}
			chains[c][j] = append(chains[c][j], v)
		}
	}
	lo := math.Inf(1)
	ess := make([]float64, len(names))
	for j := range names {
		per := make([][]float64, len(chains))
		for c := range chains {
			per[c] = chains[c][j]
		}
		ess[j] = numeric.ESSBulk(per)
		lo = min(lo, ess[j])
	}
	fmt.Printf("%.1f", lo)
	for j, n := range names {
		fmt.Printf(" %s=%.1f", n, ess[j])
	}
	fmt.Println()
	return nil
}

// printReportESS reads playground run --target --json's report and
// prints its bulk ESS (numeric.ESSBulk over the chains' kept draws, as
// printESS computes it), the smallest first, then each parameter's.
func printReportESS(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var rep struct {
		Params map[string]struct {
			ESSBulk *float64 `json:"ess_bulk"`
		} `json:"params"`
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	lo := math.Inf(1)
	names := slices.Sorted(maps.Keys(rep.Params))
	for _, n := range names {
		e := rep.Params[n].ESSBulk
		if e == nil {
			return fmt.Errorf("%s: %s has no ess_bulk (a sampler's report has)", path, n)
		}
		lo = min(lo, *e)
	}
	fmt.Printf("%.1f", lo)
	for _, n := range names {
		fmt.Printf(" %s=%.1f", n, *rep.Params[n].ESSBulk)
	}
	fmt.Println()
	return nil
}
