package experiment

import (
	"bufio"
	"encoding/csv"
	"io"
	"strconv"
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
func writeDraws(w io.Writer, ev evaluation, gridX []float64) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	itoa := strconv.Itoa
	if t := ev.chains; t != nil {
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
				row[0], row[1], row[2] = itoa(c+1), itoa(i+1), itoa(draw)
				for j := range t.names {
					row[3+j] = num(t.draws[j][c][i])
				}
				if err := cw.Write(row); err != nil {
					return err
				}
			}
		}
	} else {
		head := []string{".chain", ".iteration", ".draw"}
		for _, x := range gridX {
			head = append(head, "f["+num(x)+"]")
		}
		if err := cw.Write(head); err != nil {
			return err
		}
		row := make([]string, len(head))
		for s, f := range ev.gridSamples {
			row[0], row[1], row[2] = "1", itoa(s+1), itoa(s+1)
			for i, v := range f {
				row[3+i] = num(v)
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
