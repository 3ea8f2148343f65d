package family

import (
	"math"

	"github.com/posterior-playground/playground/numeric"
	"github.com/posterior-playground/playground/sim/target"
)

// sClamp bounds each coupling layer's log-scale s to (−sClamp, sClamp) by
// s = sClamp·tanh(raw/sClamp): a layer can stretch by e³ ≈ 20 at most, so
// one large step of Adam cannot send exp(s) to overflow.
const sClamp = 3

// momentDraws is the number of fixed base draws the flow's moments are
// averaged over: the mean's Monte Carlo error is sd/√2048 ≈ 2% of an sd.
const momentDraws = 2048

// Flow is a normalizing flow q(θ): a standard normal ε pushed through
// affine coupling layers (RealNVP) that alternate which coordinate they
// move, then an elementwise affine map.
type Flow struct {
	*fitter
	fl *flowT
	me [][2]float64   // fixed base draws for Moments
	mp []target.Point // their images, Moments' scratch
}

// flowT is the flow's map. Layer l (l = 0, 1, …) keeps coordinate
// c = l mod 2 and moves b = 1 − c:
//
//	y_c = x_c,  y_b = x_b·e^{s(x_c)} + t(x_c),
//	(s_raw, t) = W₂ tanh(W₁x_c + b₁) + b₂,  s = 3 tanh(s_raw/3),
//
// with log|det| = s. The last map is u = μ + e^ℓ ⊙ x. Parameters: μ, ℓ,
// then per layer W₁, b₁, W₂'s s row, W₂'s t row (H each), b₂ (2).
type flowT struct {
	p     []float64
	nl, h int

	// Slot k's values; layer values at k·nl + l, hidden ones at
	// (k·nl + l)·h.
	eps, xL [][2]float64
	hid     []float64
	xc, xb  []float64
	th, es  []float64
	jac     [][2][2]float64 // ∂u/∂ε
	gld     [][2]float64    // ∇_ε log|det ∂u/∂ε|
}

// NewFlow returns a coupling flow for t with cfg.Layers layers of
// cfg.Hidden tanh units, starting as a Gaussian (every layer the
// identity: its output weights zero).
func NewFlow(t target.Target, cfg Config) (*Flow, error) {
	c, err := cfg.resolve(defaultLRFlow)
	if err != nil {
		return nil, err
	}
	f, err := newFrame(t)
	if err != nil {
		return nil, err
	}
	k, nl, h := c.Samples, c.Layers, c.Hidden
	fl := &flowT{
		p: make([]float64, 4+nl*(4*h+2)), nl: nl, h: h,
		eps: make([][2]float64, k), xL: make([][2]float64, k),
		hid: make([]float64, k*nl*h),
		xc:  make([]float64, k*nl), xb: make([]float64, k*nl),
		th: make([]float64, k*nl), es: make([]float64, k*nl),
		jac: make([][2][2]float64, k), gld: make([][2]float64, k),
	}
	r := numeric.NewStream(c.Seed, 2)
	s := f.start(c)
	fl.p[0], fl.p[1] = s[0]+0.1*r.NormFloat64(), s[1]+0.1*r.NormFloat64()
	fl.p[2], fl.p[3] = -math.Ln2, -math.Ln2 // as the Gaussians start
	for l := range nl {
		w1, b1, _, _, _ := fl.layer(l)
		for i := range h {
			w1[i], b1[i] = r.NormFloat64(), r.NormFloat64()
		}
	}
	q := &Flow{fitter: newFitter(t, f, c, fl, fl.p), fl: fl, me: make([][2]float64, momentDraws), mp: make([]target.Point, momentDraws)}
	r = numeric.NewStream(c.Seed, 3)
	for i := range q.me {
		q.me[i] = [2]float64{r.NormFloat64(), r.NormFloat64()}
	}
	return q, nil
}

// layer returns layer l's parameters: W₁, b₁, W₂'s rows for s and t, and
// b₂ = (b_s, b_t).
func (fl *flowT) layer(l int) (w1, b1, ws, wt, b2 []float64) {
	h := fl.h
	o := 4 + l*(4*h+2)
	return fl.p[o : o+h], fl.p[o+h : o+2*h], fl.p[o+2*h : o+3*h], fl.p[o+3*h : o+4*h], fl.p[o+4*h : o+4*h+2]
}

// net evaluates layer l's network at x, writing the hidden units to hid
// (when not nil) and returning tanh(s_raw/3), t and, when deriv, their
// derivatives in x: ds/dx and dt/dx.
func (fl *flowT) net(l int, x float64, hid []float64, deriv bool) (th, t, dsdx, dtdx float64) {
	w1, b1, ws, wt, b2 := fl.layer(l)
	rs, rt := b2[0], b2[1]
	for i := range w1 {
		a := math.Tanh(w1[i]*x + b1[i])
		if hid != nil {
			hid[i] = a
		}
		rs += ws[i] * a
		rt += wt[i] * a
		if deriv {
			d := (1 - a*a) * w1[i]
			dsdx += ws[i] * d
			dtdx += wt[i] * d
		}
	}
	th = math.Tanh(rs / sClamp)
	return th, rt, (1 - th*th) * dsdx, dtdx
}

func (fl *flowT) forward(k int, e [2]float64) ([2]float64, float64) {
	x := e
	ld := 0.0
	keep := k >= 0
	deriv := keep // score needs J and ∇_ε log|det J|
	j := [2][2]float64{{1, 0}, {0, 1}}
	var g [2]float64
	for l := range fl.nl {
		c, b := l&1, 1-l&1
		var hid []float64
		if keep {
			s := k*fl.nl + l
			hid = fl.hid[s*fl.h : (s+1)*fl.h]
		}
		th, t, dsdx, dtdx := fl.net(l, x[c], hid, deriv)
		s := sClamp * th
		es := math.Exp(s)
		if keep {
			i := k*fl.nl + l
			fl.xc[i], fl.xb[i], fl.th[i], fl.es[i] = x[c], x[b], th, es
		}
		if deriv {
			// Row b of the Jacobian picks up row c through s and t.
			d := x[b]*es*dsdx + dtdx
			g[0] += dsdx * j[c][0]
			g[1] += dsdx * j[c][1]
			j[b][0] = es*j[b][0] + d*j[c][0]
			j[b][1] = es*j[b][1] + d*j[c][1]
		}
		x[b] = x[b]*es + t
		ld += s
	}
	sg0, sg1 := math.Exp(fl.p[2]), math.Exp(fl.p[3])
	if keep {
		fl.eps[k], fl.xL[k] = e, x
		if deriv {
			fl.jac[k] = [2][2]float64{{sg0 * j[0][0], sg0 * j[0][1]}, {sg1 * j[1][0], sg1 * j[1][1]}}
			fl.gld[k] = g
		}
	}
	return [2]float64{fl.p[0] + sg0*x[0], fl.p[1] + sg1*x[1]}, ld + fl.p[2] + fl.p[3]
}

func (fl *flowT) pull(k int, gr [2]float64, w float64, grad []float64) {
	x := fl.xL[k]
	sg := [2]float64{math.Exp(fl.p[2]), math.Exp(fl.p[3])}
	grad[0] += gr[0]
	grad[1] += gr[1]
	grad[2] += gr[0]*sg[0]*x[0] + w
	grad[3] += gr[1]*sg[1]*x[1] + w
	gx := [2]float64{gr[0] * sg[0], gr[1] * sg[1]}
	h := fl.h
	for l := fl.nl - 1; l >= 0; l-- {
		c, b := l&1, 1-l&1
		i := k*fl.nl + l
		hid := fl.hid[i*h : (i+1)*h]
		xc, xb, th, es := fl.xc[i], fl.xb[i], fl.th[i], fl.es[i]
		gyb := gx[b]
		ds := (gyb*xb*es + w) * (1 - th*th) // through s = 3 tanh(s_raw/3)
		dt := gyb
		o := 4 + l*(4*h+2)
		gw1, gb1, gws, gwt, gb2 := grad[o:o+h], grad[o+h:o+2*h], grad[o+2*h:o+3*h], grad[o+3*h:o+4*h], grad[o+4*h:o+4*h+2]
		w1, _, ws, wt, _ := fl.layer(l)
		gb2[0] += ds
		gb2[1] += dt
		gxc := gx[c]
		for u := range hid {
			a := hid[u]
			gws[u] += ds * a
			gwt[u] += dt * a
			dpre := (ds*ws[u] + dt*wt[u]) * (1 - a*a)
			gw1[u] += dpre * xc
			gb1[u] += dpre
			gxc += dpre * w1[u]
		}
		gx[c], gx[b] = gxc, gyb*es
	}
}

// score is ∇_u log q(u) = J⁻ᵀ(−ε − ∇_ε log|det J|), J = ∂u/∂ε.
func (fl *flowT) score(k int) [2]float64 {
	j, e, g := fl.jac[k], fl.eps[k], fl.gld[k]
	v0, v1 := -e[0]-g[0], -e[1]-g[1]
	det := j[0][0]*j[1][1] - j[0][1]*j[1][0]
	return [2]float64{(j[1][1]*v0 - j[1][0]*v1) / det, (j[0][0]*v1 - j[0][1]*v0) / det}
}

// logDensity inverts the flow: x = (u − μ)e^{−ℓ}, then each layer from the
// last, x_b = (y_b − t(y_c))e^{−s(y_c)}.
func (fl *flowT) logDensity(u [2]float64) float64 {
	x := [2]float64{(u[0] - fl.p[0]) * math.Exp(-fl.p[2]), (u[1] - fl.p[1]) * math.Exp(-fl.p[3])}
	ld := fl.p[2] + fl.p[3]
	for l := fl.nl - 1; l >= 0; l-- {
		c, b := l&1, 1-l&1
		th, t, _, _ := fl.net(l, x[c], nil, false)
		s := sClamp * th
		x[b] = (x[b] - t) * math.Exp(-s)
		ld += s
	}
	return logPhi2(x) - ld
}

// Moments returns q's mean and covariance averaged over a fixed set of
// momentDraws base draws, so that they are a smooth function of the
// parameters (common random numbers).
func (q *Flow) Moments() (target.Point, Cov) {
	for i, e := range q.me {
		u, _ := q.fl.forward(-1, e)
		q.mp[i] = q.f.toTheta(u)
	}
	return momentsOf(q.mp)
}

// momentsOf is the mean and covariance (divisor n) of the points ps.
func momentsOf(ps []target.Point) (target.Point, Cov) {
	n := float64(len(ps))
	var m target.Point
	for _, p := range ps {
		m[0] += p[0]
		m[1] += p[1]
	}
	m[0] /= n
	m[1] /= n
	var c Cov
	for _, p := range ps {
		d0, d1 := p[0]-m[0], p[1]-m[1]
		c[0][0] += d0 * d0
		c[0][1] += d0 * d1
		c[1][1] += d1 * d1
	}
	c[0][0] /= n
	c[0][1] /= n
	c[1][1] /= n
	c[1][0] = c[0][1]
	return m, c
}
