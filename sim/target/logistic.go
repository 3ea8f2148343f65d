package target

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// oringFlights is the number of Space Shuttle flights before Challenger.
const oringFlights = 23

// logisticPriorSD is the prior sd of the intercept and the slope.
const logisticPriorSD = 2.5

// Logistic is the posterior of a logistic regression of O-ring damage on
// standardised launch temperature x = (t − mean)/sd (sd with divisor n,
// x rounded to 4 decimals, so that Source writes it exactly):
// y ~ Bernoulli(σ(α + bx)), α, b ~ N(0, 2.5²). The slope is b, not β:
// beta names a distribution in Stan's notation. A real posterior: skewed,
// its parameters correlated; its figures come from the grid only.
type Logistic struct {
	// The flights grouped by temperature (16 distinct values): x
	// standardised, n flights, k of them damaged. The likelihood depends
	// on the data only through these, and a density costs 16 terms, not 23.
	x, n, k  []float64
	mean, sd float64 // of the temperatures, to read β per °F
}

// NewLogistic returns the O-ring posterior, which has no controls.
func NewLogistic() *Logistic {
	// Dalal, Fowlkes & Hoadley (1989), Table 1: launch temperature in °F
	// and whether an O-ring showed thermal distress.
	temp := [oringFlights]float64{53, 57, 58, 63, 66, 67, 67, 67, 68, 69, 70, 70, 70, 70, 72, 73, 75, 75, 76, 76, 78, 79, 81}
	damage := [oringFlights]float64{1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0}
	t := &Logistic{}
	for _, v := range temp {
		t.mean += v
	}
	t.mean /= oringFlights
	for _, v := range temp {
		t.sd += (v - t.mean) * (v - t.mean)
	}
	t.sd = math.Sqrt(t.sd / oringFlights)
	for i, v := range temp { // temp is sorted
		x := math.Round((v-t.mean)/t.sd*1e4) / 1e4
		if i == 0 || v != temp[i-1] {
			t.x, t.n, t.k = append(t.x, x), append(t.n, 0), append(t.k, 0)
		}
		t.n[len(t.n)-1]++
		t.k[len(t.k)-1] += damage[i]
	}
	return t
}

func (t *Logistic) Name() string      { return "logistic" }
func (t *Logistic) Params() [2]string { return [2]string{"alpha", "b"} }

// Box holds all but about 1e-6 of the mass: on a 1024² grid over
// [−15, 15]², the marginals' 1e-7 and 1 − 1e-7 quantiles are α ∈ [−5.22,
// 1.60], β ∈ [−7.80, 1.13], so at most 4e-7 lies outside this box
// (TestLogisticBox checks it on the grid).
func (t *Logistic) Box() Box { return Box{-5.5, 2, -8, 1.5} }

func (t *Logistic) LogDensity(p Point) float64 {
	a, b := p[0], p[1]
	lp := -(a*a + b*b) / (2 * logisticPriorSD * logisticPriorSD)
	for i, x := range t.x {
		eta := a + b*x
		lp += t.k[i]*eta - t.n[i]*softplus(eta)
	}
	return lp
}

func (t *Logistic) LogDensityGrad(p Point) (float64, Point) {
	a, b := p[0], p[1]
	const prec = 1 / (logisticPriorSD * logisticPriorSD)
	lp := -(a*a + b*b) / (2 * logisticPriorSD * logisticPriorSD)
	ga, gb := -prec*a, -prec*b
	for i, x := range t.x {
		eta := a + b*x
		// One exponential for both softplus(η) and σ(η), as softplus
		// forms it.
		e := math.Exp(-math.Abs(eta))
		lp += t.k[i]*eta - t.n[i]*(max(eta, 0)+math.Log1p(e))
		sig := 1 / (1 + e)
		if eta < 0 {
			sig = e / (1 + e)
		}
		r := t.k[i] - t.n[i]*sig
		ga += r
		gb += r * x
	}
	return lp, Point{ga, gb}
}

// softplus is log(1 + eˣ) without overflow.
func softplus(x float64) float64 {
	return max(x, 0) + math.Log1p(math.Exp(-math.Abs(x)))
}

// Source writes the likelihood out, one statement per temperature: k
// damaged flights of n at x add k·log σ(α + bx) + (n − k)·log σ(−(α + bx)).
func (t *Logistic) Source() string {
	var s strings.Builder
	fmt.Fprintf(&s, "// O-ring damage on 23 flights at x = (temperature °F − %.2f) / %.2f\n", t.mean, t.sd)
	s.WriteString("alpha ~ normal(0, 2.5);\nb ~ normal(0, 2.5);\n")
	for i, x := range t.x {
		eta := "alpha + " + strconv.FormatFloat(x, 'f', -1, 64) + " * b"
		if x < 0 {
			eta = "alpha - " + strconv.FormatFloat(-x, 'f', -1, 64) + " * b"
		}
		var terms []string
		for _, c := range []struct {
			n    float64
			term string
		}{{t.k[i], "log(inv_logit(" + eta + "))"}, {t.n[i] - t.k[i], "log(inv_logit(-(" + eta + ")))"}} {
			switch {
			case c.n == 1:
				terms = append(terms, c.term)
			case c.n > 1:
				terms = append(terms, fmt.Sprintf("%g * %s", c.n, c.term))
			}
		}
		fmt.Fprintf(&s, "target += %s;\n", strings.Join(terms, " + "))
	}
	return strings.TrimSuffix(s.String(), "\n")
}
