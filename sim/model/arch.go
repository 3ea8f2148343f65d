package model

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
)

// Activation is the nonlinearity after every hidden layer. The zero value is
// ReLU, the GIP notebook's.
type Activation uint8

const (
	ReLU Activation = iota // max(x, 0)
	Tanh                   // tanh(x)
	ELU                    // x for x > 0, eˣ − 1 otherwise (α = 1)
)

// Activations names the activations in the order of their values, as the
// activation control offers them.
var activationNames = [...]string{ReLU: "relu", Tanh: "tanh", ELU: "elu"}

// ActivationNames returns the names the activation control accepts.
func ActivationNames() []string { return append([]string(nil), activationNames[:]...) }

func (a Activation) String() string {
	if int(a) < len(activationNames) {
		return activationNames[a]
	}
	return fmt.Sprintf("Activation(%d)", a)
}

// ParseActivation returns the activation named s; the error is a
// *sim.FieldError naming the activation control.
func ParseActivation(s string) (Activation, error) {
	for i, n := range activationNames {
		if s == n {
			return Activation(i), nil
		}
	}
	return 0, &sim.FieldError{Field: ControlActivation, Message: fmt.Sprintf("%q is not one of %v", s, activationNames)}
}

// The limits of the architecture control: hidden layers and their widths.
const (
	MaxHidden = 4
	MaxWidth  = 256
)

// Names of the architecture controls every BNN method declares.
const (
	ControlArch       = "arch"
	ControlActivation = "activation"
)

// ParseArch returns the network 1 → hidden widths → 1 for a comma-separated
// list of at most MaxHidden widths in [1, MaxWidth]; "" and "0" are the
// network with no hidden layer. The error is a *sim.FieldError naming the
// arch control and the allowed range.
func ParseArch(s string, act Activation) (Arch, error) {
	hs, err := sim.ParseList(s, MaxHidden, 1, MaxWidth)
	if err != nil {
		return Arch{}, &sim.FieldError{Field: ControlArch, Message: err.Error()}
	}
	w := make([]int, 0, len(hs)+2)
	w = append(w, 1)
	w = append(w, hs...)
	w = append(w, 1)
	return Arch{Widths: w, Act: act}, nil
}

// Hidden returns the hidden widths as the arch control writes them: "50,50",
// or "0" for none.
func (a Arch) Hidden() string {
	if len(a.Widths) <= 2 {
		return "0"
	}
	parts := make([]string, 0, len(a.Widths)-2)
	for _, w := range a.Widths[1 : len(a.Widths)-1] {
		parts = append(parts, strconv.Itoa(w))
	}
	return strings.Join(parts, ",")
}

// ArchControls returns the specs of the arch and activation controls, with
// the GIP notebook's network as the default. Neither is live: a new
// network is a new run.
func ArchControls() []sim.ControlSpec {
	d := DefaultArch()
	return []sim.ControlSpec{
		{Name: ControlArch, Label: "Hidden layers", Help: fmt.Sprintf("widths of the hidden layers, comma-separated: at most %d layers of 1–%d units; 0 for none (a linear model). Presets: GIP notebook 50,50 relu; LIVI paper toy 7,10 elu; small 20 relu. Changing it restarts the run", MaxHidden, MaxWidth),
			List: MaxHidden, Min: 1, Max: MaxWidth, Integer: true, Default: sim.Choice(d.Hidden())},
		{Name: ControlActivation, Label: "Activation", Help: "the nonlinearity after every hidden layer (elu: α = 1). Changing it restarts the run",
			Options: ActivationNames(), Default: sim.Choice(d.Act.String())},
	}
}

// ArchFromControls returns the network the arch and activation controls of
// c describe, DefaultArch for a control c lacks.
func ArchFromControls(c sim.Controls) (Arch, error) {
	act := DefaultArch().Act
	if v, ok := c[ControlActivation]; ok {
		a, err := ParseActivation(v.Choice)
		if err != nil {
			return Arch{}, err
		}
		act = a
	}
	v, ok := c[ControlArch]
	if !ok {
		a := DefaultArch()
		a.Act = act
		return a, nil
	}
	return ParseArch(v.Choice, act)
}

// Preset is a named network of the seeds the playground compares against.
type Preset struct {
	Name   string
	Slug   string // the command line's name for it (--preset)
	Hidden string // the arch control's value
	Act    Activation
}

// Presets returns the named networks: the GIP notebook's (the default), the
// LIVI paper's toy and a small one the samplers mix on.
func Presets() []Preset {
	return []Preset{
		{Name: "GIP notebook", Slug: "gip-notebook", Hidden: "50,50", Act: ReLU},
		{Name: "LIVI paper toy", Slug: "livi-paper-toy", Hidden: "7,10", Act: ELU},
		{Name: "small", Slug: "small", Hidden: "20", Act: ReLU},
	}
}

// PresetNamed returns the preset whose slug or name is s (case ignored), or
// a field error naming "preset" and listing the slugs.
func PresetNamed(s string) (Preset, error) {
	var slugs []string
	for _, p := range Presets() {
		if strings.EqualFold(s, p.Slug) || strings.EqualFold(s, p.Name) {
			return p, nil
		}
		slugs = append(slugs, p.Slug)
	}
	return Preset{}, &sim.FieldError{Field: "preset", Message: fmt.Sprintf("%q is not one of %s", s, strings.Join(slugs, ", "))}
}

// ArchOf returns the network of model name with controls c: for BNN the one
// the arch and activation controls describe (ArchFromControls), for Linear
// the network with no hidden layer. ok is false for any other name.
func ArchOf(name string, c sim.Controls) (a Arch, ok bool, err error) {
	if name == BNN {
		a, err = ArchFromControls(c)
		return a, true, err
	}
	a, ok = ArchFor(name)
	return a, ok, nil
}

// Apply returns a(x), for code outside Net that applies the network's
// nonlinearity itself (GIP's inducing layers).
func (a Activation) Apply(x float64) float64 {
	switch a {
	case Tanh:
		return math.Tanh(x)
	case ELU:
		if x > 0 {
			return x
		}
		return math.Expm1(x)
	}
	return max(x, 0)
}
