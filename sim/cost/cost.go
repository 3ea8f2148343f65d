package cost

import (
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/model"
)

// Workload is what a run will be: its method, model, controls and data.
type Workload struct {
	Method string // a catalog method's name, or a gallery method's for a target
	Model  string // "bnn", "linear" or "gp"; "" takes "bnn" (a target's method has none)
	// Controls are the method's controls, resolved (every one present); a
	// missing one counts at its catalog default where the formula needs it.
	Controls sim.Controls
	Rows     int  // training points; 0 for a target density
	Target   bool // a gallery method on a two-dimensional target density
}

// Cost is a run's estimated price.
type Cost struct {
	Bytes     int64   // memory the method holds at its largest
	StepFLOPs float64 // arithmetic of one step, at most
	PollFLOPs float64 // arithmetic between two polls of the interrupt (a leapfrog, a member; a whole step for a method that does not poll)
	// MemoryDrivers and StepDrivers name what Bytes and StepFLOPs grow
	// with, the most effective first: controls, and DataPoints for the
	// training data. A refusal names them as what to lower.
	MemoryDrivers, StepDrivers []string
}

// DataPoints is the driver that names the training data.
const DataPoints = "data points"

// runBase is what every run holds besides its method: the engine's
// recorders (traces, marks, the last frames and their bands).
const runBase = 2 << 20

// Estimate returns the cost of w. A method it does not know is counted at
// runBase, with no arithmetic: Known says which it knows.
func Estimate(w Workload) Cost {
	if w.Target {
		return target(w)
	}
	f, ok := formulas[w.Method]
	if !ok {
		return Cost{Bytes: runBase}
	}
	c := f(w, netOf(w))
	c.Bytes += runBase + 16*int64(w.Rows) // the run's copy of x and y
	return c
}

// Known reports whether Estimate has a formula for the named data method.
func Known(method string) bool {
	_, ok := formulas[method]
	return ok
}

// net is the size of the model's network: its weights, the arithmetic of
// a forward pass on one point, and the bytes a model.Net holds per point
// with its backward buffers (activations, ones columns, gradients) and
// without.
type net struct {
	p          int     // weights
	dim        int     // a sampler's θ: the weights and log σ
	layers     int     // weight matrices
	fwd        float64 // multiply–adds ×2 of one forward pass, per point
	rows       float64 // Σ fan-in+1 over the layers, for gip's solves
	rows2      float64 // Σ (fan-in+1)²
	cols       float64 // Σ fan-out
	grad, pred int64   // bytes per point of a Net with and without Backward
}

func netOf(w Workload) net {
	if w.Model == model.Linear || w.Model == model.GP {
		return net{p: 3, dim: 3, layers: 1, fwd: 10, rows: 2, rows2: 4, cols: 1, grad: 32, pred: 24}
	}
	arch, err := model.ArchFromControls(w.Controls)
	if err != nil {
		arch = model.DefaultArch()
	}
	layers, p := model.Layout(arch)
	n := net{p: p, dim: p + 1, layers: len(layers)}
	var hidden, cols int64
	for l, ly := range layers {
		n.fwd += 2 * float64(ly.Rows*ly.Cols)
		n.rows += float64(ly.Rows)
		n.rows2 += float64(ly.Rows * ly.Rows)
		cols += int64(ly.Cols)
		if l < len(layers)-1 {
			hidden += int64(ly.Cols + 1)
		}
	}
	n.cols = float64(cols)
	n.pred = 8 * (3 + hidden)  // inputs (x, 1), output, each hidden layer with its ones column
	n.grad = n.pred + 8*(cols) // and d loss/d pre-activation of every layer
	return n
}

// num is control name of w as a number, def when w lacks it.
func num(w Workload, name string, def float64) float64 {
	if v, ok := w.Controls[name]; ok && !v.IsChoice() {
		return v.Num
	}
	return def
}

type formula func(w Workload, n net) Cost

var formulas = map[string]formula{
	"nuts":       sampler("nuts"),
	"hmc":        sampler("hmc"),
	"metropolis": sampler("metropolis"),
	"sgld":       sampler("sgld"),
	"mfvi":       mfvi,
	"map":        point,
	"ensemble":   point,
	"livi":       livi,
	"gip":        gip,
	"fbnn":       fbnn,
	"gp-exact":   gpExact,
	"gpvi":       gpVI,
}

// Constants of package mcmc: the draws of the summarised parameters kept
// per chain (maxDraws), the floats of full-θ draws (fullFloats, at least
// 64 draws) and the points of a row block, between two of which a BNN's
// density polls the interrupt (blockRows).
const (
	mcmcMaxDraws   = 100_000
	mcmcFullFloats = 1 << 19
	mcmcBlockRows  = 512
)

// samplerVectors are the θ-sized vectors a chain's kernel and its warm-up
// adapter hold: NUTS's are the trajectory's ends, proposals and momenta
// (24) and, for each of the 10 tree levels, 9 more (newNUTS); HMC's and
// the others' were counted the same way and measured.
var samplerVectors = map[string]int64{"nuts": 124, "hmc": 18, "metropolis": 13, "sgld": 13}

// sampler is package mcmc's four samplers: each chain keeps a network on
// every point, its kernel's vectors and its stores of draws.
func sampler(kind string) formula {
	return func(w Workload, n net) Cost {
		chains := num(w, "chains", 4)
		rows := int64(w.Rows)
		dim := int64(n.dim)
		kept := 2 + int64(n.layers) // noise, f_mid, a weight of every layer (package mcmc's params)
		if w.Model == model.Linear {
			kept = 3
		}
		full := min(max(mcmcFullFloats/dim, 64), mcmcMaxDraws)
		chain := n.grad*rows + 8*dim*samplerVectors[kind] + 8*(dim*full+kept*mcmcMaxDraws) + 16*rows
		grad := 3 * n.fwd * float64(w.Rows)
		block := float64(min(w.Rows, mcmcBlockRows)) // the density polls between row blocks
		if w.Model == model.Linear {
			block = float64(w.Rows)
		}
		c := Cost{MemoryDrivers: []string{"chains", model.ControlArch, DataPoints}}
		switch kind {
		case "nuts":
			c.PollFLOPs = 3 * n.fwd * block
			c.StepFLOPs = chains * math.Exp2(num(w, "max_depth", 10)) * grad
			c.StepDrivers = []string{"max_depth", "chains", model.ControlArch, DataPoints}
		case "hmc":
			c.PollFLOPs = 3 * n.fwd * block
			c.StepFLOPs = chains * num(w, "leapfrog_steps", 20) * grad
			c.StepDrivers = []string{"leapfrog_steps", "chains", model.ControlArch, DataPoints}
		case "metropolis":
			c.PollFLOPs = n.fwd * block
			c.StepFLOPs = chains * n.fwd * float64(w.Rows)
			c.StepDrivers = []string{"chains", model.ControlArch, DataPoints}
		default: // sgld: a minibatch's gradient, on a second network
			b := min(int64(num(w, "batch", 32)), rows)
			chain += n.grad * b
			c.PollFLOPs = 3 * n.fwd * float64(b)
			c.StepFLOPs = chains * c.PollFLOPs
			c.StepDrivers = []string{"batch", "chains", model.ControlArch}
		}
		c.Bytes = int64(chains) * chain
		return c
	}
}

// mfvi: one network on every point, reused by each Monte Carlo sample,
// and a slab of 8 weight vectors (means, log stds, gradients, Adam's).
func mfvi(w Workload, n net) Cost {
	grad := 3 * n.fwd * float64(w.Rows)
	step := num(w, "mc_samples", 1) * grad
	return Cost{Bytes: n.grad*int64(w.Rows) + 8*8*int64(n.p), StepFLOPs: step, PollFLOPs: step,
		MemoryDrivers: []string{model.ControlArch, DataPoints}, StepDrivers: []string{"mc_samples", model.ControlArch, DataPoints}}
}

// point is map and ensemble: members step one after another on one shared
// network, each with its weights, gradient and Adam's two moments.
func point(w Workload, n net) Cost {
	members := 1.0
	if w.Method == "ensemble" {
		members = num(w, "members", 5)
	}
	grad := 3 * n.fwd * float64(w.Rows)
	c := Cost{Bytes: n.grad*int64(w.Rows) + int64(members)*8*4*int64(n.p) + 16*int64(w.Rows),
		StepFLOPs: members * grad, PollFLOPs: grad,
		MemoryDrivers: []string{model.ControlArch, DataPoints}, StepDrivers: []string{model.ControlArch, DataPoints}}
	if w.Method == "ensemble" {
		c.MemoryDrivers = []string{"members", model.ControlArch, DataPoints}
		c.StepDrivers = []string{"members", model.ControlArch, DataPoints}
	}
	return c
}

// liviHidden is package livi's generator's hidden width (genHidden).
const liviHidden = 64

// livi: a generator from noise_dim inputs through liviHidden units to
// every weight. Its weights, gradients, Adam's moments and a Jacobian of
// the weights by the noise hold about 5.4·liviHidden + 3·noise_dim
// weight-sized vectors (measured: the generator's buffers, newGenGrad's and
// Adam's after the first step); a sample's generator pass and its
// Jacobian-vector products cost about 6 multiply–adds per generator weight
// and noise input.
func livi(w Workload, n net) Cost {
	nd := num(w, "noise_dim", 20)
	gen := 6 * float64(n.p) * liviHidden * (nd + 1)
	sample := 3*n.fwd*float64(w.Rows) + gen
	return Cost{Bytes: n.grad*int64(w.Rows) + int64(8*float64(n.p)*(5.4*liviHidden+3*nd)),
		StepFLOPs: num(w, "mc_samples", 1) * sample, PollFLOPs: sample,
		MemoryDrivers: []string{model.ControlArch, "noise_dim", DataPoints}, StepDrivers: []string{"mc_samples", model.ControlArch, "noise_dim", DataPoints}}
}

// gip records every Monte Carlo sample on a tape (numeric.Tape) and keeps
// it until the sample's backward pass: per sample, about two networks'
// worth on every point, 11.5 floats per inducing point and unit, and 50
// per weight (the layers' pseudo-observation solves; both measured at
// arch 50,50 and 256,256). A layer's solve is of its fan-in + 1.
func gip(w Workload, n net) Cost {
	m := num(w, "inducing", 100)
	mc := num(w, "mc_samples", 1)
	sample := 2*n.grad*int64(w.Rows) + int64(8*(11.5*m*n.cols+50*float64(n.p)))
	step := mc * (6*n.fwd*float64(w.Rows) + 4*m*n.rows2 + 2*n.rows2*n.rows)
	return Cost{Bytes: int64(mc) * sample, StepFLOPs: step, PollFLOPs: step,
		MemoryDrivers: []string{"mc_samples", model.ControlArch, DataPoints, "inducing"},
		StepDrivers:   []string{"mc_samples", model.ControlArch, DataPoints, "inducing"}}
}

// fbnnMaxBatch is package fbnn's training points per step (maxBatch).
const fbnnMaxBatch = 100

// fbnn keeps one network per particle on the step's measurement points (a
// batch of at most fbnnMaxBatch training points and measurement_points
// random ones), each particle's weights and noise, and an n×n kernel; its
// cost does not grow with the data.
func fbnn(w Workload, n net) Cost {
	k := num(w, "particles", 50)
	pts := float64(min(w.Rows, fbnnMaxBatch)) + num(w, "measurement_points", 40)
	bytes := k*pts*float64(n.grad) + 16*k*float64(n.p) + 64*float64(n.p) + 8*pts*pts + 48*k*pts
	particle := 3 * n.fwd * pts
	return Cost{Bytes: int64(bytes), StepFLOPs: k*particle + pts*pts*pts/3 + 2*k*k*pts, PollFLOPs: particle,
		MemoryDrivers: []string{"particles", "measurement_points", model.ControlArch},
		StepDrivers:   []string{"particles", "measurement_points", model.ControlArch}}
}

// gpExact holds a handful of N×N matrices (the kernel, its Cholesky
// factor, the gradient's); a step that learns the kernel refactorises.
func gpExact(w Workload, _ net) Cost {
	n := float64(w.Rows)
	step := n * n * n
	return Cost{Bytes: int64(8 * 6 * n * n), StepFLOPs: step, PollFLOPs: step,
		MemoryDrivers: []string{DataPoints}, StepDrivers: []string{DataPoints}}
}

// gpVI holds about 24 N×N matrices (the kernel, the variational
// covariance's factor, their gradients and Adam's moments).
func gpVI(w Workload, _ net) Cost {
	n := float64(w.Rows)
	step := 4 * n * n * n
	return Cost{Bytes: int64(8 * 24 * n * n), StepFLOPs: step, PollFLOPs: step,
		MemoryDrivers: []string{DataPoints}, StepDrivers: []string{DataPoints}}
}

// target is a gallery method on a two-dimensional density: its chains'
// rings of draws and its family are small; SVGD's squared distances
// between particles (n(n−1)/2 of them, package family) are the one term
// that grows, as particles².
func target(w Workload) Cost {
	c := Cost{Bytes: runBase + 2<<20, MemoryDrivers: []string{"particles"}, StepDrivers: []string{"particles", "samples"}}
	switch w.Method {
	case "svgd":
		k := num(w, "particles", 100)
		c.Bytes += int64(8 * (k*(k-1)/2 + 12*k))
		c.StepFLOPs = 20 * k * k
	default:
		const chains = 8 // the most a gallery sampler runs
		c.StepFLOPs = chains*1024*200 + num(w, "samples", 256)*2000
	}
	c.PollFLOPs = c.StepFLOPs
	return c
}
