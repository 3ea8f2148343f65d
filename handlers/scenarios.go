package handlers

import (
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Scenario is a preset experiment of the home page's gallery: a data set,
// one to four methods and control values, written as data so a new one is a
// new entry in Scenarios.
type Scenario struct {
	Slug        string
	Name        string
	Summary     string // one line for the gallery card
	Description string // a paragraph on the play page: what to look at
	Note        string // an honest caveat (what is not there yet)
	Data        string
	Methods     []string
	Seed        uint64
	Controls    map[string]string // "method.control" → value
	Hide        []string          // controls hidden on the page ("method.control" or "control")
	Focus       []string          // controls highlighted on the page
	Sweep       *SweepSpec        // a sweep card on the page (api_sweeps_page.go), or nil
}

// Scenarios returns the gallery, in display order. It returns a fresh copy
// each time, so callers may not change what others see.
func Scenarios() []Scenario {
	return []Scenario{
		{
			Slug:    "mfvi-vs-gip-gap",
			Name:    "Mean-field vs GIP on the gap",
			Summary: "Two clusters of a noisy cubic with nothing in between. Which posterior admits it does not know what happens in the gap?",
			Description: "Press play. Mean-field VI (left) soon settles on a band that stays narrow between the clusters, " +
				"while global inducing points (right) widen theirs where there is no data. Then move a prior scale slider: " +
				"the change is marked on the objective plot and both fits respond live.",
			Data:    "gap",
			Methods: []string{"mfvi", "gip"},
			Seed:    1,
			Focus:   []string{"prior_scale"},
		},
		{
			Slug:    "in-between",
			Name:    "In-between uncertainty",
			Summary: "How much more uncertain is the fit between the clusters than on them? GIP's in-between ratio, live.",
			Description: "The in-between ratio is the posterior standard deviation of f at the centre of the gap divided by the " +
				"mean standard deviation of f at the training inputs. A ratio well above 1 means the method is more uncertain " +
				"where it has seen no data, as an honest posterior should be; mean-field VI on this data ends near 0.5. " +
				"The panel's diagnostics show it as inbetween_ratio, read off the band's sampled functions (their std on the plotting grid, interpolated).",
			Data:    "gap",
			Methods: []string{"gip"},
			Seed:    1,
		},
		{
			Slug:    "prior-scale",
			Name:    "Prior scale",
			Summary: "Scale the weight prior from 0.1 to 10 and watch the fit collapse to a constant or come alive.",
			Description: "The prior std of every weight is s/√(fan-in + 1). Move the highlighted slider: small s collapses the " +
				"network to a near-constant or linear function that explains the data as noise; the ELBO falls. " +
				"This classroom link hides the optimiser's controls so the exercise stays on s.",
			Note:     "Its sweep card trains GIP at 11 prior scales from 0.316 to 3.16 and plots ELBO and IWBO ± 2 s.e. as each completes; it takes minutes, as every value is a full training run.",
			Data:     "gap",
			Methods:  []string{"gip"},
			Seed:     1,
			Controls: map[string]string{"gip.prior_scale": "0.3"},
			Hide:     []string{"lr", "mc_samples"},
			Focus:    []string{"gip.prior_scale"},
			// sweeps: the GIP issue's prior scale sweep
			Sweep: &SweepSpec{Method: "gip", Param: "prior_scale", Values: "logspace:0.316:3.16:11"},
		},
		{
			Slug:    "inducing-points",
			Name:    "Inducing points",
			Summary: "Start GIP with 5 global inducing points and add more while it trains.",
			Description: "GIP's approximation is only as rich as its inducing points allow. Starting from 5, raise the highlighted " +
				"slider: new points are drawn from the data while the existing ones keep what they learned; the bound rises and " +
				"then levels off.",
			Note:     "Its sweep card trains GIP with M = 1 … 100 inducing points and plots ELBO and IWBO ± 2 s.e. as each completes; it takes minutes, as every value is a full training run.",
			Data:     "gap",
			Methods:  []string{"gip"},
			Seed:     1,
			Controls: map[string]string{"gip.inducing": "5"},
			Focus:    []string{"gip.inducing"},
			// sweeps: the GIP issue's inducing point sweep
			Sweep: &SweepSpec{Method: "gip", Param: "inducing", Values: "1,2,5,10,20,30,40,50,60,70,80,90,100"},
		},
		{
			Slug:    "kl-weight",
			Name:    "Mean-field's KL weight",
			Summary: "Mean-field underfits the gap data. Down-weight its KL term and see it fit — and lose its honesty.",
			Description: "With the KL weight β at 1 the objective is the true ELBO and mean-field explains most of the data as noise. " +
				"Lower β (KL annealing) and the same network fits the cubic, but the band in the gap stays narrow: the bound " +
				"is no longer a bound on the evidence.",
			Data:    "gap",
			Methods: []string{"mfvi"},
			Seed:    1,
			Focus:   []string{"mfvi.kl_weight"},
		},
		{
			Slug:    "vi-vs-mcmc",
			Name:    "VI vs MCMC",
			Summary: "Bayesian linear regression on one posterior, known exactly: mean-field VI, GIP and HMC against it, in the (b0, b) plane.",
			Description: "Thirty points from y = −1 + 2x + 0.5ε with x in [0, 2], fitted with the linear model (intercept b0, slope b). " +
				"Every panel fits the same posterior: σ is held at 0.5 and b0, b ~ N(0, s²/2) in all three, so the exact posterior is a " +
				"Gaussian, drawn dashed in every panel: its band on the predictive plot and its 1, 2 and 3 sd contours in the joint (b0, b) view. " +
				"Because the inputs sit away from 0, intercept and slope are strongly anti-correlated (about −0.87): the exact contours are tilted. " +
				"Press play. Mean-field VI's 2σ ellipse is axis-aligned and too narrow: its means are right but each sd is √(1 − ρ²) ≈ 0.5 of the exact one " +
				"(its table shows the ratio). GIP's ellipse tilts onto the exact contours. HMC's draws fill them; its panel adds traces per chain, " +
				"rank plots, R-hat and effective sample sizes.",
			Data:     "linreg-offset",
			Methods:  []string{"mfvi", "gip", "hmc"},
			Seed:     1,
			Controls: map[string]string{"mfvi.fixed_noise": "0.5", "gip.fixed_noise": "0.5", "hmc.fixed_noise": "0.5"},
			Focus:    []string{"hmc.step", "hmc.leapfrog_steps"},
		},
		{
			Slug:    "robust-gp",
			Name:    "Robust GP regression",
			Summary: "Twenty points of a GP sample with Cauchy noise: a Gaussian likelihood is dragged by the outliers, a Cauchy one is not.",
			Description: "The exact GP (left) assumes Gaussian noise, so every outlier pulls its mean and widens nothing where it should; " +
				"the variational GP (right, Opper–Archambeau) uses a Cauchy likelihood with a learned scale and lets the outliers go. " +
				"The dotted line is the true function. Move the lengthscale, kernel variance or noise: both panels follow at once.",
			Data:     "gp-cauchy",
			Methods:  []string{"gp-exact", "gpvi"},
			Seed:     1,
			Controls: map[string]string{"gpvi.likelihood": "cauchy"},
			Focus:    []string{"lengthscale", "variance", "noise"},
		},
		{
			Slug:    "gp-classification",
			Name:    "GP classification",
			Summary: "Fifty 0/1 labels from a GP through the sigmoid: the variational GP's probability band and sampled functions.",
			Description: "Labels (dots at 0 and 1) were drawn as y ~ Bernoulli(σ(z)) with z a GP sample of variance e² ≈ 7.39, which " +
				"the kernel variance is set to. The variational GP with a Bernoulli-logit likelihood shows the predictive probability, " +
				"a band σ(m ± 2s) from the latent f and sampled functions through the sigmoid, all within [0, 1]; the dotted line " +
				"is the true p(x). Shorten the lengthscale and the fit chases single labels; lengthen it and it flattens.",
			Data:     "gp-classification",
			Methods:  []string{"gpvi"},
			Seed:     1,
			Controls: map[string]string{"gpvi.variance": "7.389"},
			Focus:    []string{"gpvi.lengthscale", "gpvi.variance"},
		},
		{
			Slug:    "periodic-extrapolation",
			Name:    "Periodic extrapolation",
			Summary: "Twenty points of a sine in two clusters: a functional prior carries the pattern past the data, a weight prior does not.",
			Description: "Functional VI (fBNN, left) trains the network's weights so that its functions match a periodic GP prior at " +
				"measurement points spread over the whole axis, with the entropy's gradient from a spectral Stein estimator; it keeps " +
				"the oscillation going beyond the training range once it has trained for a few thousand steps. Mean-field VI (right) " +
				"has only a prior on the weights: outside the data its mean drifts off and its band is wide. Try the kernel switch " +
				"(rbf) or the period.",
			Data:     "periodic",
			Methods:  []string{"fbnn", "mfvi"},
			Seed:     1,
			Controls: map[string]string{"fbnn.kernel": "periodic"},
			Focus:    []string{"fbnn.kernel", "fbnn.period"},
		},
		{
			Slug:    "implicit-vs-mean-field",
			Name:    "Implicit vs mean-field vs HMC",
			Summary: "The LIVI paper's sinusoid with a gap: an implicit posterior from a generator network next to mean-field VI and HMC.",
			Description: "Implicit VI (LIVI, left) draws all weights of the network at once from a small generator fed with Gaussian noise, " +
				"so its posterior can have correlations, heavy tails and several modes; mean-field VI (middle) gives every weight its own " +
				"Gaussian; HMC (right) samples the posterior itself. Press play and compare the bands in the gap. Under each VI panel, " +
				"choose a weight: LIVI shows a histogram of that weight's marginal from 2000 generator draws with the Gaussian of the " +
				"same mean and std dashed over it, mean-field its Gaussian; a positive excess kurtosis means heavier tails than a Gaussian.",
			Note: "Measured honestly: on this 1 → 50 → 50 → 1 network LIVI's band in the gap is not wider than on the data once trained " +
				"(in-between ratio about 0.7 at 10 000 steps, as mean-field's), while NUTS on the same model finds about 3 here and 16 on gap. " +
				"With d = 20 noise dimensions for 2701 weights, LIVI's entropy term gains most by spreading first-layer weights (prior std five " +
				"times the others'; watch the layer1_share trace climb to nearly 1), which do not move f at the gap's centre; the other 2681 directions stay at the fixed output noise, which is " +
				"why its ELBO estimate reads about −7800. Its marginals here are close to Gaussian (excess kurtosis near 0). HMC on 2701 weights mixes slowly.",
			Data:    "sinusoid-gap",
			Methods: []string{"livi", "mfvi", "hmc"},
			Seed:    1,
			Focus:   []string{"livi.noise_dim", "livi.objective"},
		},
	}
}

// ScenarioBySlug returns the scenario with the given slug.
func ScenarioBySlug(slug string) (Scenario, bool) {
	for _, s := range Scenarios() {
		if s.Slug == slug {
			return s, true
		}
	}
	return Scenario{}, false
}

// URL returns the play page's link for the scenario.
func (s Scenario) URL() string {
	q := []string{
		"scenario=" + queryEscape(s.Slug),
		"data=" + queryEscape(s.Data),
		"methods=" + queryEscape(strings.Join(s.Methods, ",")),
		"seed=" + strconv.FormatUint(s.Seed, 10),
	}
	for _, k := range slices.Sorted(maps.Keys(s.Controls)) {
		q = append(q, queryEscape(k)+"="+queryEscape(s.Controls[k]))
	}
	if len(s.Hide) > 0 {
		q = append(q, "hide="+queryEscape(strings.Join(s.Hide, ",")))
	}
	if len(s.Focus) > 0 {
		q = append(q, "focus="+queryEscape(strings.Join(s.Focus, ",")))
	}
	return "/play?" + strings.Join(q, "&")
}

// queryEscape escapes a query value but keeps the characters that are legal
// in a query and make links readable (",", ":").
func queryEscape(s string) string {
	e := url.QueryEscape(s)
	return strings.NewReplacer("%2C", ",", "%3A", ":").Replace(e)
}
