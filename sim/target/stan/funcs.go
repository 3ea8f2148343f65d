package stan

import "sort"

// opcode is one instruction of a compiled density, and one kind of node of
// its syntax tree.
type opcode uint8

const (
	opConst opcode = iota // a number (tree only; compiled to a constant register)
	opParam               // a parameter (tree only; compiled to register 0 or 1)
	opID                  // the operand itself, for target += x
	opAdd
	opSub
	opMul
	opDiv
	opPow    // a ^ b, both varying
	opPowC   // a ^ c, c constant
	opSquare // a ^ 2
	opNeg
	opExp
	opLog
	opLog1p
	opExpm1
	opSqrt
	opAbs
	opSin
	opCos
	opTanh
	opInvLogit
	opLogSumExp
	opNormal // lpdf(y | mu, sigma), operands y, mu, sigma
	opStudentT
	opCauchy
	opLognormal
	opExponential
	opGamma
	opBeta
)

// function is a function of the expression language.
type function struct {
	op    opcode
	arity int
	value float64 // for the constants pi() and e(), which have arity 0
}

var functions = map[string]function{
	"exp":         {op: opExp, arity: 1},
	"log":         {op: opLog, arity: 1},
	"log1p":       {op: opLog1p, arity: 1},
	"expm1":       {op: opExpm1, arity: 1},
	"sqrt":        {op: opSqrt, arity: 1},
	"abs":         {op: opAbs, arity: 1},
	"sin":         {op: opSin, arity: 1},
	"cos":         {op: opCos, arity: 1},
	"tanh":        {op: opTanh, arity: 1},
	"inv_logit":   {op: opInvLogit, arity: 1},
	"square":      {op: opSquare, arity: 1},
	"log_sum_exp": {op: opLogSumExp, arity: 2},
	"pow":         {op: opPow, arity: 2},
	"pi":          {op: opConst, value: 3.141592653589793},
	"e":           {op: opConst, value: 2.718281828459045},
}

// distribution is a probability density of the language, written as a
// sampling statement "y ~ name(params)" or as "name_lpdf(y | params)".
type distribution struct {
	name     string
	op       opcode
	params   []string // in Stan's order
	positive []int    // indices into params of those that must be > 0
}

var distributions = map[string]distribution{
	"normal":      {name: "normal", op: opNormal, params: []string{"mu", "sigma"}, positive: []int{1}},
	"student_t":   {name: "student_t", op: opStudentT, params: []string{"nu", "mu", "sigma"}, positive: []int{0, 2}},
	"cauchy":      {name: "cauchy", op: opCauchy, params: []string{"mu", "sigma"}, positive: []int{1}},
	"lognormal":   {name: "lognormal", op: opLognormal, params: []string{"mu", "sigma"}, positive: []int{1}},
	"exponential": {name: "exponential", op: opExponential, params: []string{"beta"}, positive: []int{0}},
	"gamma":       {name: "gamma", op: opGamma, params: []string{"alpha", "beta"}, positive: []int{0, 1}},
	"beta":        {name: "beta", op: opBeta, params: []string{"alpha", "beta"}, positive: []int{0, 1}},
}

const lpdfSuffix = "_lpdf"

// callableNames lists every name that may be called as name(…): the
// functions and the distributions' _lpdf forms, sorted.
func callableNames() []string {
	var names []string
	for n := range functions {
		names = append(names, n)
	}
	for n := range distributions {
		names = append(names, n+lpdfSuffix)
	}
	sort.Strings(names)
	return names
}

func distributionNames() []string {
	var names []string
	for n := range distributions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// suggest returns the candidate nearest name in edit distance (counting a
// swap of two neighbours as one edit, since "nromal" is one slip), if it is
// near enough to be a likely typo: at most one edit in three characters,
// and fewer edits than name has characters.
func suggest(name string, candidates []string) (string, bool) {
	best, bestD := "", min(max(1, len(name)/3), len(name)-1)+1
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestD {
			best, bestD = c, d
		}
	}
	return best, best != ""
}

// editDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and adjacent transpositions.
func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return max(len(a), len(b))
	}
	var d [66][66]int
	for i := 0; i <= len(a); i++ {
		d[i][0] = i
	}
	for j := 0; j <= len(b); j++ {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
