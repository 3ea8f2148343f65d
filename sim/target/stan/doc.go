// Package stan compiles two-parameter log densities written in Stan's
// notation into targets (target.Target) that the gallery's samplers and
// variational families run on like a built-in target.
//
//	v ~ normal(0, 3);
//	x ~ normal(0, exp(v / 2));
//	x in [-20, 20];
//
// # Language
//
// A text is a sequence of statements:
//
//	statement = expr "~" dist "(" args ")" ";"     a sampling statement
//	          | "target" "+=" expr ";"
//	          | name "in" "[" expr "," expr "]" ";"   the box of a parameter
//	expr      = term { ("+" | "-") term }
//	term      = unary { ("*" | "/") unary }
//	unary     = ("-" | "+") unary | primary [ "^" unary ]
//	primary   = number | name | "(" expr ")" | name "(" args ")"
//	          | dist "_lpdf" "(" expr "|" args ")"
//
// As in Stan, ^ is right-associative and binds tighter than unary minus:
// -x^2 is -(x^2) and 2^3^2 is 512. Comments are // and # to the end of the
// line, and /* … */.
//
// The two parameters are the two names the text uses that are not
// functions, in the order of their first use (Params). The functions are
// exp, log, log1p, expm1, sqrt, abs, sin, cos, tanh, inv_logit, square,
// log_sum_exp(a, b), pow(a, b) and the constants pi() and e(). The
// distributions, with Stan's parameters and supports, are normal(μ, σ),
// student_t(ν, μ, σ), cauchy(μ, σ), lognormal(μ, σ) on y > 0,
// exponential(β) (a rate) on y ≥ 0, gamma(α, β) (shape, rate) on y > 0 and
// beta(α, β) on 0 < y < 1.
//
// A sampling statement adds the distribution's whole log density, its
// normalising constant included (Stan's sampling statements drop it, and
// its _lpdf functions keep it): the typed funnel above integrates to one
// as Neal's funnel does, and a typed density's log Z means what a
// built-in's does.
//
// # Values outside the support
//
// Outside a distribution's support, where a scale or shape computed from
// the parameters is not positive, or where any term is NaN (log of a
// negative number), the log density is −Inf with a zero gradient: a
// point a sampler rejects, not an error. A scale or shape that is a
// negative number in the text, a NaN constant, and a density that is −Inf
// or NaN on the whole of its box are errors found by Parse, which
// evaluates the density on a grid over the box.
//
// # The box
//
// "x in [lo, hi];" sets the range of x in Box, where the density is drawn
// and integrated; it does not truncate the density (and a density the
// grid does not resolve on its box, a funnel's neck, is integrated past
// it: see target.NewGrid). A parameter without one gets the range where
// the density is within 10 nats of its largest value on a grid (for a
// Gaussian, 4.5 standard deviations about the mode, holding all but e^−10
// of the mass of a 2-D Gaussian), found on a 65 × 65 grid over ±8, ±64 or
// ±512 (the first whose edge the region does not reach) and refined three
// times. A density that does not fall off within ±512 must give its box.
//
// # Errors and limits
//
// Every error is an *Error whose text begins with the line and column
// (from 1, counting characters) of the character it is about, and offers
// the nearest known name for an unknown one:
//
//	1:5: unknown distribution "nromal"; did you mean "normal"?
//
// A text has at most MaxChars characters, MaxNodes nodes and MaxDepth
// levels of nesting, so Parse's work is bounded whatever is pasted in:
// on a loaded machine the largest texts compile in about a second.
//
// # Evaluation
//
// Parse compiles the text into a flat list of instructions over a small
// register file of dual numbers (a value and its two partial derivatives),
// so one forward pass gives the log density and its exact gradient: in two
// dimensions forward mode with two tangents is as cheap as reverse mode
// and needs no tape. Constants are folded, a distribution whose scale and
// shape are numbers has its normalising constant computed once, x^2 and
// x^0.5 become a square and a square root, and registers are reused in
// stack order, so the banana needs four instructions and five registers.
// The register file lives on the caller's stack: an evaluation allocates
// nothing and a Density is safe for concurrent use. numeric's tape was the
// alternative; it records 1×1 matrices with their bookkeeping, ran the
// banana about ten times slower than this (BenchmarkBananaTape), and has
// no sin, cos, lgamma or digamma.
package stan
