package stan

import (
	"math"

	"gonum.org/v1/gonum/mathext"
)

// The log densities of the distributions, fully normalised as Stan's
// _lpdf functions are (not the constant-dropping form of a sampling
// statement), so a typed density's log Z means what a built-in target's
// does. Each returns the value and the tangents along x and y from the
// partial derivatives in each operand; outside the support, or with a
// shape or scale that is not positive, the value is −Inf with zero
// tangents.

const (
	halfLog2Pi = 0.9189385332046728 // ½ log 2π
	logPi      = 1.1447298858494002
)

var negInf = dual{v: math.Inf(-1)}

// normaliser is the term of op's log density that depends only on its
// shape and scale operands s (in the order of the distribution's
// parameters, skipping location ones): computed once at compile time when
// they are constants.
func normaliser(op opcode, s0, s1 float64) float64 {
	switch op {
	case opNormal, opLognormal:
		return -math.Log(s0) - halfLog2Pi // s0 = sigma
	case opCauchy:
		return -math.Log(s0) - logPi
	case opStudentT: // s0 = nu, s1 = sigma
		return lgamma((s0+1)/2) - lgamma(s0/2) - 0.5*math.Log(s0) - 0.5*logPi - math.Log(s1)
	case opExponential:
		return math.Log(s0)
	case opGamma: // s0 = alpha, s1 = beta
		return s0*math.Log(s1) - lgamma(s0)
	case opBeta:
		return lgamma(s0+s1) - lgamma(s0) - lgamma(s1)
	}
	panic("stan: normaliser of a non-distribution")
}

// shapeOperands gives which operands (1-based after the variate: b=1, c=2,
// d=3) of op are the shape and scale that normaliser takes.
func shapeOperands(op opcode) []int {
	switch op {
	case opNormal, opLognormal, opCauchy:
		return []int{2}
	case opStudentT:
		return []int{1, 3}
	case opExponential:
		return []int{1}
	case opGamma, opBeta:
		return []int{1, 2}
	}
	return nil
}

func lgamma(x float64) float64 { v, _ := math.Lgamma(x); return v }

func normalLPDF(y, mu, sigma dual, in *instr) dual {
	if !(sigma.v > 0) {
		return negInf
	}
	norm := in.k
	if !in.kc {
		norm = normaliser(opNormal, sigma.v, 0)
	}
	inv := 1 / sigma.v
	z := (y.v - mu.v) * inv
	gy, gs := -z*inv, (z*z-1)*inv
	return dual{
		-0.5*z*z + norm,
		gy*(y.dx-mu.dx) + gs*sigma.dx,
		gy*(y.dy-mu.dy) + gs*sigma.dy,
	}
}

func studentTLPDF(y, nu, mu, sigma dual, in *instr) dual {
	if !(nu.v > 0) || !(sigma.v > 0) {
		return negInf
	}
	norm := in.k
	if !in.kc {
		norm = normaliser(opStudentT, nu.v, sigma.v)
	}
	z := (y.v - mu.v) / sigma.v
	q := z * z / nu.v
	w := (nu.v + 1) / (nu.v + z*z)
	gy := -w * z / sigma.v
	gs := (w*z*z - 1) / sigma.v
	gnu := 0.0
	if !in.kc {
		gnu = 0.5*(mathext.Digamma((nu.v+1)/2)-mathext.Digamma(nu.v/2)-1/nu.v-math.Log1p(q)) + w*z*z/(2*nu.v)
	}
	return dual{
		norm - (nu.v+1)/2*math.Log1p(q),
		gy*(y.dx-mu.dx) + gs*sigma.dx + gnu*nu.dx,
		gy*(y.dy-mu.dy) + gs*sigma.dy + gnu*nu.dy,
	}
}

func cauchyLPDF(y, mu, sigma dual, in *instr) dual {
	if !(sigma.v > 0) {
		return negInf
	}
	norm := in.k
	if !in.kc {
		norm = normaliser(opCauchy, sigma.v, 0)
	}
	z := (y.v - mu.v) / sigma.v
	u := 1 + z*z
	gy := -2 * z / (sigma.v * u)
	gs := (2*z*z/u - 1) / sigma.v
	return dual{
		norm - math.Log1p(z*z),
		gy*(y.dx-mu.dx) + gs*sigma.dx,
		gy*(y.dy-mu.dy) + gs*sigma.dy,
	}
}

func lognormalLPDF(y, mu, sigma dual, in *instr) dual {
	if !(sigma.v > 0) || !(y.v > 0) {
		return negInf
	}
	norm := in.k
	if !in.kc {
		norm = normaliser(opLognormal, sigma.v, 0)
	}
	ly := math.Log(y.v)
	z := (ly - mu.v) / sigma.v
	gy := (-z/sigma.v - 1) / y.v
	gmu := z / sigma.v
	gs := (z*z - 1) / sigma.v
	return dual{
		norm - 0.5*z*z - ly,
		gy*y.dx + gmu*mu.dx + gs*sigma.dx,
		gy*y.dy + gmu*mu.dy + gs*sigma.dy,
	}
}

func exponentialLPDF(y, beta dual, in *instr) dual {
	if !(beta.v > 0) || !(y.v >= 0) {
		return negInf
	}
	norm := in.k
	if !in.kc {
		norm = normaliser(opExponential, beta.v, 0)
	}
	gb := 1/beta.v - y.v
	return dual{
		norm - beta.v*y.v,
		-beta.v*y.dx + gb*beta.dx,
		-beta.v*y.dy + gb*beta.dy,
	}
}

func gammaLPDF(y, alpha, beta dual, in *instr) dual {
	if !(alpha.v > 0) || !(beta.v > 0) || !(y.v > 0) {
		return negInf
	}
	norm := in.k
	ly := math.Log(y.v)
	ga := 0.0
	if !in.kc {
		norm = normaliser(opGamma, alpha.v, beta.v)
		ga = math.Log(beta.v) - mathext.Digamma(alpha.v) + ly
	}
	gy := (alpha.v-1)/y.v - beta.v
	gb := alpha.v/beta.v - y.v
	return dual{
		norm + (alpha.v-1)*ly - beta.v*y.v,
		gy*y.dx + ga*alpha.dx + gb*beta.dx,
		gy*y.dy + ga*alpha.dy + gb*beta.dy,
	}
}

func betaLPDF(y, a, b dual, in *instr) dual {
	if !(a.v > 0) || !(b.v > 0) || !(y.v > 0 && y.v < 1) {
		return negInf
	}
	norm := in.k
	ly, l1y := math.Log(y.v), math.Log1p(-y.v)
	ga, gb := 0.0, 0.0
	if !in.kc {
		norm = normaliser(opBeta, a.v, b.v)
		dab := mathext.Digamma(a.v + b.v)
		ga = dab - mathext.Digamma(a.v) + ly
		gb = dab - mathext.Digamma(b.v) + l1y
	}
	gy := (a.v-1)/y.v - (b.v-1)/(1-y.v)
	return dual{
		norm + (a.v-1)*ly + (b.v-1)*l1y,
		gy*y.dx + ga*a.dx + gb*b.dx,
		gy*y.dy + ga*a.dy + gb*b.dy,
	}
}
