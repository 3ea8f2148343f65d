// Package datasets provides Posterior Playground's seven built-in data sets
// and loads a user's CSV file.
//
// # Built-in data sets
//
// Every built-in data set is deterministic for a seed: it draws from its own
// PCG stream, rand.NewPCG(seed, stream), with a stream constant per data set,
// in a fixed order (all inputs, cluster by cluster, then all noise). None of
// them reproduces its source's draws bit for bit: the sources used other
// generators, several without a seed. ε is a standard normal draw.
//
//	gap                GIP notebook's cubic (Ober & Aitchison 2021)
//	                   x: 50 from U(−4, −2), then 50 from U(2, 4)
//	                   y = x³ + 3ε; x and y standardised (N = 100)
//	                   grid [−2.5, 2.5] (standardised units)
//	sinusoid-gap       LIVI toy (Uppal et al. 2023)
//	                   x: 38 points linspace(−1.28, −0.61), 32 linspace(0.61, 1.28)
//	                   y = f(x) + 0.3ε, f(x) = x + 0.8 sin 2πx + 0.8 sin 4πx
//	                   x divided by 1.28 (so in [−1, 1]), y as is (N = 70)
//	                   grid [−1.5, 1.5]; the gap's centre is 0
//	linreg             MCMC blog's regression
//	                   x: 30 from U(−1, 1); y = −1 + 2x + 0.5ε; not rescaled
//	                   (N = 30), grid [−1.5, 1.5], no gap; default model linear
//	linreg-offset      linreg with x: 30 from U(0, 2); grid [−0.5, 2.5]: b0 and b
//	                   strongly correlated a posteriori (ρ ≈ −0.87)
//	gp-cauchy          Opper–Archambeau notebook, robust regression
//	                   z = L·ε on 400 points linspace(−5, 5), L = chol(K + 1e-9·I),
//	                   K exponentiated-quadratic with variance 1, lengthscale 1;
//	                   x: 20 distinct grid points chosen at random (sorted);
//	                   y ~ Cauchy(z, e⁻²); not rescaled, grid [−5, 5]
//	gp-classification  Opper–Archambeau notebook, classification
//	                   as gp-cauchy with kernel variance e² and 50 points;
//	                   y = 1 with probability sigmoid(z), else 0
//	periodic           fBNN sine toy (Sun et al. 2019)
//	                   x: 10 from U(−2, −0.5), then 10 from U(0.5, 2)
//	                   y = 2 sin 4x + 0.2ε; x and y standardised (N = 20)
//	                   grid ±3·max|x| (standardised), so extrapolation shows
//
// "Standardised" means minus the mean, divided by the population standard
// deviation (as numpy's std and the GIP notebook do). Every grid has
// GridPoints = 201 points. Gap, sinusoid-gap and periodic have a gap; its
// centre (GapCentre, model units) is the midpoint between the inner edges of
// the two clusters (raw gap intervals (−2, 2), (−0.61, 0.61) and
// (−0.5, 0.5)). Truth is the noiseless function in model units: for the GP
// sets the piecewise-linear interpolant of z (gp-cauchy) or of sigmoid(z)
// (gp-classification, whose Truth is the probability p(y = 1 | x)) through
// the 400 grid points, constant beyond them. The sinusoid omits the LIVI
// code's 1e-6 offsets. The Cauchy draws are z + e⁻²·tan(π(u − ½)) with u
// uniform on (0, 1).
//
// # Units
//
// Data, truth and grid are stored in model units, as the methods see them;
// the Dataset's XScale and YScale map them back to the user's units
// (x_user = XScale.Mean + XScale.Std·x_model), and InUserUnits does that for
// a whole data set. Built-in data sets are defined in their standardised
// units, as the sources plot them, so the command line reports their
// results in model units; the dashboard plots them in the original units.
//
// # CSV files
//
// LoadCSV reads a header row naming columns x and y (any order, other
// columns ignored, a leading byte-order mark allowed), then at least 2 and
// at most MaxCSVRows data rows of finite numbers, in at most MaxCSVBytes.
// Any fault (a missing column, a short row, a cell that is not a finite
// number, inputs that are all equal, too many rows or bytes) is a
// *sim.FieldError for the field "data-file" naming the row and column. x and
// y are standardised like the built-in sets (a constant y is only centred)
// and results are reported back in the file's units; the linear model works
// in the file's units directly. The grid spans the data widened by a quarter
// of its range on each side; the data have a gap when the widest interval
// between consecutive sorted inputs exceeds a fifth of their range, centred
// there. A file has no known truth.
package datasets
