package model

import (
	"math"

	"github.com/posterior-playground/playground/sim"
)

// Names of the models a method can run on.
const (
	BNN    = "bnn"    // the GIP notebook's network
	Linear = "linear" // y = b0 + b·x + σε
	GP     = "gp"     // what the GP methods report: a GP prior on f, no weights
)

// Arch is a fully connected network with biases absorbed by a column of
// ones appended to every layer's input (after the nonlinearity).
type Arch struct {
	// Widths lists the layer widths from input to output, e.g. [1 50 50 1].
	Widths []int
	// Act is the nonlinearity after every hidden layer (ReLU when zero).
	Act Activation
}

// DefaultArch is the GIP notebook's 1 → 50 → 50 → 1 network.
func DefaultArch() Arch { return Arch{Widths: []int{1, 50, 50, 1}} }

// ArchFor returns the architecture of model name: DefaultArch for BNN, the
// network with no hidden layer for Linear. ok is false for any other name.
func ArchFor(name string) (a Arch, ok bool) {
	switch name {
	case BNN:
		return DefaultArch(), true
	case Linear:
		return Arch{Widths: []int{1, 1}}, true
	}
	return Arch{}, false
}

// Resolve returns the model a method runs on when asked for name: name
// itself, or for "" the data set's DefaultModel, or BNN when that is "" too.
func Resolve(name string, d *sim.Dataset) string {
	if name == "" {
		name = d.DefaultModel
	}
	if name == "" {
		name = BNN
	}
	return name
}

// Layers returns the number of weight matrices.
func (a Arch) Layers() int { return len(a.Widths) - 1 }

// InDim returns the number of rows of layer l's weight matrix (0-based l):
// the fan-in plus one for the bias row.
func (a Arch) InDim(l int) int { return a.Widths[l] + 1 }

// OutDim returns the number of columns of layer l's weight matrix.
func (a Arch) OutDim(l int) int { return a.Widths[l+1] }

// PriorStd returns the prior standard deviation of every entry of layer l's
// weights, bias row included: scale / sqrt(fan_in + 1).
func (a Arch) PriorStd(l int, scale float64) float64 {
	return scale / math.Sqrt(float64(a.InDim(l)))
}

// NumWeights returns the total number of weights, biases included.
func (a Arch) NumWeights() int {
	n := 0
	for l := 0; l < a.Layers(); l++ {
		n += a.InDim(l) * a.OutDim(l)
	}
	return n
}

// InitLogNoise is the initial log observation noise std (σ ≈ 0.135).
const InitLogNoise = -2.0
