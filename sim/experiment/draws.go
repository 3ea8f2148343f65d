package experiment

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"

	"github.com/posterior-playground/playground/sim"
)

// The draws file (`playground run --draws FILE.csv`) is a CSV table laid
// out as the Stan ecosystem's draws tables (the posterior package's
// draws_df): the columns .chain, .iteration and .draw (all from 1; .draw
// counts across chains, chain after chain), then one column per quantity.
// Every number is written at full precision (shortest text that reads back
// to the same float64), in the summary's units.
//
//   - A sampler writes every kept draw of every chain of the parameters the
//     summary's params key summarises (sim.Chains: Params, Draws), one row
//     per chain and kept draw, so numeric.Summarize over a column split by
//     .chain reproduces params exactly. A chain keeps at most 100,000 draws
//     of these; beyond that it keeps every other one, so .iteration is the
//     index among the kept draws.
//   - Any other method writes 500 draws of f on the summary's grid as one
//     chain, columns f[x] for each grid point x (x as in grid.x). Without
//     analytic moments these are the samples behind the summary's grid
//     band; for the GP methods they are further draws from the same
//     Gaussian.
//
// The server's GET /api/runs/{id}/draws.csv writes a sampler's run the same
// way (SamplerDraws, ChainTable.WriteCSV).
func writeDraws(w io.Writer, ev evaluation, gridX []float64) error {
	if ev.chains != nil {
		return ev.chains.WriteCSV(w)
	}
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	head := []string{".chain", ".iteration", ".draw"}
	for _, x := range gridX {
		head = append(head, "f["+num(x)+"]")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	row := make([]string, len(head))
	for s, f := range ev.gridSamples {
		row[0], row[1], row[2] = "1", strconv.Itoa(s+1), strconv.Itoa(s+1)
		for i, v := range f {
			row[3+i] = num(v)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// SamplerDraws reads a sampler's kept draws in d's report units, as the
// draws file holds them. It calls c, so it must run where c may be used
// (a run's goroutine); the table it returns is c's copy, free to write
// anywhere.
func SamplerDraws(c sim.Chains, d *sim.Dataset) *ChainTable {
	_, ys := d.ReportScales()
	return chainDraws(c, ys)
}

// Len is the number of rows WriteCSV writes after its header: chains ×
// kept draws per chain.
func (t *ChainTable) Len() int {
	if len(t.draws) == 0 || len(t.draws[0]) == 0 {
		return 0
	}
	return len(t.draws[0]) * len(t.draws[0][0])
}

// WriteCSV writes t as a draws file: .chain, .iteration, .draw, then one
// column per parameter, one row per chain and kept draw.
func (t *ChainTable) WriteCSV(w io.Writer) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	if err := cw.Write(append([]string{".chain", ".iteration", ".draw"}, t.names...)); err != nil {
		return err
	}
	row := make([]string, 3+len(t.names))
	draw := 0
	chains := 0
	if len(t.draws) > 0 {
		chains = len(t.draws[0])
	}
	for c := range chains {
		for i := range t.draws[0][c] {
			draw++
			row[0], row[1], row[2] = strconv.Itoa(c+1), strconv.Itoa(i+1), strconv.Itoa(draw)
			for j := range t.names {
				row[3+j] = num(t.draws[j][c][i])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// num writes v at full precision: the shortest text that reads back to v.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
