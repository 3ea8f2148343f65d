package family

import (
	"fmt"
	"math"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/sim/target"
)

// Divergence is what a parametric family minimises.
type Divergence int

const (
	// ReverseKL is KL(q‖p): maximise the ELBO by reparameterised gradients.
	// Mode-seeking.
	ReverseKL Divergence = iota
	// ForwardKL is KL(p‖q): follow −E_p[∇_λ log q_λ(z)], the expectation
	// taken with self-normalised importance weights of q's own draws.
	// Mass-covering.
	ForwardKL
	// Renyi is the Rényi α bound of Li & Turner (2016) with K draws,
	// reparameterised.
	Renyi
)

// String returns the divergence's key: "reverse_kl", "forward_kl", "renyi".
func (d Divergence) String() string {
	switch d {
	case ReverseKL:
		return "reverse_kl"
	case ForwardKL:
		return "forward_kl"
	case Renyi:
		return "renyi"
	}
	return fmt.Sprintf("Divergence(%d)", int(d))
}

// Config configures a family. Its zero value is the default for every
// family: reverse KL, the family's own learning rate and draws per step.
type Config struct {
	Divergence Divergence // parametric families only
	// Alpha is Rényi's α in [0, 2], read only under Renyi: 0 gives the
	// importance-weighted bound (log Z as K grows), 1 the ELBO, above 1 an
	// upper bound in the limit.
	Alpha float64
	// Samples is K, the draws from q per step, in [1, 4096]; 0 means 32,
	// or 256 under ForwardKL, whose self-normalised weights bias the
	// fixed point towards q by O(χ²(p‖q)/K). Each costs one target
	// evaluation.
	Samples int
	// LR is Adam's learning rate, in (0, 1], in the target's standardised
	// units (see the package doc); 0 means the family's default.
	LR float64
	// Layers and Hidden shape the flow: coupling layers in [1, 16]
	// (0 means 4) and hidden units of each layer's network in [1, 128]
	// (0 means 16).
	Layers, Hidden int
	// Particles is SVGD's n, in [2, 2000]; 0 means 100.
	Particles int
	// Start is where q's mean (SVGD: the particles' centre) starts, in
	// the target's coordinates; nil means the centre of the box. Reverse
	// KL's optimum can depend on it: on two modes it settles in the mode
	// whose basin it starts in, or over both from the saddle between.
	Start *target.Point
	// Seed fixes every draw: the same seed and calls give the same run.
	Seed uint64
}

// Defaults filled in for zero fields.
const (
	DefaultSamples        = 32
	DefaultSamplesForward = 256
	DefaultLayers         = 4
	DefaultHidden         = 16
	DefaultParticles      = 100
	defaultLRGauss        = 0.02
	defaultLRFlow         = 0.005
	defaultLRSVGD         = 0.02
)

// resolve validates c and fills its defaults, lr being the family's own.
func (c Config) resolve(lr float64) (Config, error) {
	fe := func(field, format string, a ...any) error {
		return &sim.FieldError{Field: field, Message: fmt.Sprintf(format, a...)}
	}
	if c.Divergence < ReverseKL || c.Divergence > Renyi {
		return c, fe("divergence", "want reverse_kl, forward_kl or renyi, got %v", c.Divergence)
	}
	if !(c.Alpha >= 0 && c.Alpha <= 2) {
		return c, fe("alpha", "want a number in [0, 2], got %g", c.Alpha)
	}
	if c.Samples == 0 {
		c.Samples = DefaultSamples
		if c.Divergence == ForwardKL {
			c.Samples = DefaultSamplesForward
		}
	}
	if c.Samples < 1 || c.Samples > 4096 {
		return c, fe("samples", "want a whole number in [1, 4096], got %d", c.Samples)
	}
	if c.LR == 0 {
		c.LR = lr
	}
	if err := checkLR(c.LR); err != nil {
		return c, err
	}
	if c.Layers == 0 {
		c.Layers = DefaultLayers
	}
	if c.Layers < 1 || c.Layers > 16 {
		return c, fe("layers", "want a whole number in [1, 16], got %d", c.Layers)
	}
	if c.Hidden == 0 {
		c.Hidden = DefaultHidden
	}
	if c.Hidden < 1 || c.Hidden > 128 {
		return c, fe("hidden", "want a whole number in [1, 128], got %d", c.Hidden)
	}
	if c.Particles == 0 {
		c.Particles = DefaultParticles
	}
	if c.Particles < 2 || c.Particles > 2000 {
		return c, fe("particles", "want a whole number in [2, 2000], got %d", c.Particles)
	}
	if c.Start != nil {
		for i, v := range c.Start {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return c, fe("start", "want finite coordinates, got %g for the %s one", v, [2]string{"first", "second"}[i])
			}
		}
	}
	return c, nil
}

func checkLR(lr float64) error {
	if !(lr > 0 && lr <= 1) {
		return &sim.FieldError{Field: "lr", Message: fmt.Sprintf("want a number in (0, 1], got %g", lr)}
	}
	return nil
}

// frame maps the target's coordinates θ to standardised ones u = (θ − c)/r,
// c the box's centre and r an eighth of its sides, so the box is [−4, 4]²
// in u and one learning rate and one initialisation suit every target.
type frame struct {
	c, r   [2]float64
	logJac float64 // log r₁ + log r₂: log q_θ(θ) = log q_u(u) − logJac
}

func newFrame(t target.Target) (frame, error) {
	bx := t.Box()
	for _, s := range [][2]float64{{bx.XMin, bx.XMax}, {bx.YMin, bx.YMax}} {
		if !(s[1] > s[0]) || math.IsInf(s[0], 0) || math.IsInf(s[1], 0) {
			return frame{}, &sim.FieldError{Field: "target", Message: fmt.Sprintf("the box must be finite and non-empty, got %+v", bx)}
		}
	}
	f := frame{
		c: [2]float64{(bx.XMin + bx.XMax) / 2, (bx.YMin + bx.YMax) / 2},
		r: [2]float64{(bx.XMax - bx.XMin) / 8, (bx.YMax - bx.YMin) / 8},
	}
	f.logJac = math.Log(f.r[0]) + math.Log(f.r[1])
	return f, nil
}

// start is cfg.Start in u, or the box's centre, 0.
func (f *frame) start(c Config) [2]float64 {
	if c.Start == nil {
		return [2]float64{}
	}
	return f.toU(*c.Start)
}

func (f *frame) toTheta(u [2]float64) [2]float64 {
	return [2]float64{f.c[0] + f.r[0]*u[0], f.c[1] + f.r[1]*u[1]}
}

func (f *frame) toU(p [2]float64) [2]float64 {
	return [2]float64{(p[0] - f.c[0]) / f.r[0], (p[1] - f.c[1]) / f.r[1]}
}
