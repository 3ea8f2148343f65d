package target

// Point is a position in the plane, (θ₁, θ₂), in the order Params names them.
type Point = [2]float64

// Box is the rectangle a target is drawn over and integrated on.
type Box struct {
	XMin, XMax float64 // range of the first parameter
	YMin, YMax float64 // range of the second parameter
}

// Target is an unnormalised log density over two parameters.
type Target interface {
	// Name is the target's key: "gaussian", "banana", or "typed" for a
	// density typed by a user.
	Name() string
	// Params names the two parameters as the target's text does: "x", "y";
	// the funnel's "v", "x".
	Params() [2]string
	// Box is where the density is drawn and integrated.
	Box() Box
	// LogDensity is log p̃(θ), up to an additive constant; −Inf outside the
	// support.
	LogDensity(p Point) float64
	// LogDensityGrad is log p̃(θ) and its gradient ∇ log p̃(θ).
	LogDensityGrad(p Point) (float64, Point)
}
