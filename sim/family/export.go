package family

import "slices"

// FlowParams is a flow's map, enough to evaluate it elsewhere (an export
// of q as JSON). With ε ~ N(0, I): x = ε; for each layer in order, with
// k = Keep and m = 1 − k,
//
//	h = tanh(W1·x_k + B1),  s = 3 tanh((WS·h + BS)/3),  t = WT·h + BT,
//	x_m ← x_m·e^s + t;
//
// then u = Mu + e^{LogSigma} ⊙ x and θ = Centre + Scale ⊙ u.
type FlowParams struct {
	Centre   [2]float64  `json:"centre"`
	Scale    [2]float64  `json:"scale"`
	Mu       [2]float64  `json:"mu"`
	LogSigma [2]float64  `json:"log_sigma"`
	Layers   []FlowLayer `json:"layers"`
}

// FlowLayer is one coupling layer of FlowParams.
type FlowLayer struct {
	Keep int       `json:"keep"` // the coordinate kept; the other moves
	W1   []float64 `json:"w1"`
	B1   []float64 `json:"b1"`
	WS   []float64 `json:"ws"`
	WT   []float64 `json:"wt"`
	BS   float64   `json:"bs"`
	BT   float64   `json:"bt"`
}

// Params returns a copy of the flow's current map.
func (q *Flow) Params() FlowParams {
	fl := q.fl
	out := FlowParams{
		Centre: q.f.c, Scale: q.f.r,
		Mu: [2]float64{fl.p[0], fl.p[1]}, LogSigma: [2]float64{fl.p[2], fl.p[3]},
		Layers: make([]FlowLayer, fl.nl),
	}
	for l := range fl.nl {
		w1, b1, ws, wt, b2 := fl.layer(l)
		out.Layers[l] = FlowLayer{
			Keep: l & 1,
			W1:   slices.Clone(w1), B1: slices.Clone(b1), WS: slices.Clone(ws), WT: slices.Clone(wt),
			BS: b2[0], BT: b2[1],
		}
	}
	return out
}
