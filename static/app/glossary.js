// The page's terms of art in one place: a one-line gloss for every
// abbreviation and piece of jargon a label, chip, legend or table on the
// play page uses, shown on hover (an <abbr title>, or the title of the
// element that holds the term), and the short names the claim line and the
// exports give the methods. Pure but for glossElement, for tests
// (static/test/glossary.test.mjs).

// GLOSSARY maps a term, as the page writes it, to its gloss.
export const GLOSSARY = {
  ELBO: "evidence lower bound: the expected log likelihood under q less KL(q ‖ prior); VI maximises it",
  IWBO: "importance-weighted bound: a tighter bound on the log evidence from K samples of q weighted by p/q",
  KL: "Kullback–Leibler divergence: how far q is from the prior, the price VI pays for moving away from it",
  ESS: "effective sample size: how many independent draws the chains' correlated draws are worth",
  "R̂": "R-hat: the spread between chains over the spread within them; near 1 (below 1.01) when the chains agree",
  "R-hat": "the spread between chains over the spread within them; near 1 (below 1.01) when the chains agree",
  "k̂": "Pareto k̂: the tail shape of the importance weights p/q; above 0.7 the importance estimates are unreliable",
  GIP: "global inducing points: VI whose q over the weights is conditioned on M learned pseudo-inputs shared by all layers",
  MFVI: "mean-field VI: an independent Gaussian for every weight",
  VI: "variational inference: fit an approximate posterior q by maximising a bound on the evidence",
  MCMC: "Markov chain Monte Carlo: draws from the posterior by a random walk that settles on it",
  HMC: "Hamiltonian Monte Carlo: MCMC that follows the gradient of log p along leapfrog trajectories",
  NUTS: "No-U-Turn Sampler: HMC that chooses each trajectory's length itself, stopping when it turns back",
  SGLD: "stochastic gradient Langevin dynamics: gradient steps on mini-batches plus Gaussian noise",
  LIVI: "implicit VI: q is a generator network's output from random noise, its entropy bounded through the Jacobian",
  fBNN: "functional BNN: VI that matches the network's functions, not its weights, to a GP prior",
  BNN: "Bayesian neural network: a network with a distribution over its weights",
  GP: "Gaussian process: a prior over functions set by a kernel",
  MAP: "maximum a posteriori: the single most probable weights, no uncertainty",
  MC: "Monte Carlo: an average over random samples",
  RMS: "root mean square",
  sd: "standard deviation",
  "JᵀJ": "J is the Jacobian of LIVI's generator (weights against its noise input); det(JᵀJ) is how much it stretches volume",
  rbf: "radial basis function (exponentiated quadratic) kernel: smooth functions",
  "in-between ratio": "f's sd at the gap's centre over its mean sd on the data: above 1 when the fit is less sure where it has seen nothing",
  "pseudo-outputs": "learned targets at the inducing inputs that q over each layer's weights is conditioned on",
  "inducing inputs": "M learned inputs shared by all layers; GIP's q is conditioned on the network's values there",
  "fan-in": "the number of inputs to a unit; the prior's std shrinks as 1/√(fan-in + 1)",
  "warm-up": "a sampler's first transitions, discarded: it tunes its step there and runs from its start onto the posterior",
  leapfrog: "the integrator HMC follows a trajectory with: half a momentum step, a full position step, half a momentum step",
};

// SHORT names each method in a line that names several: the claim's
// numbers, an export's caption.
export const SHORT = {
  mfvi: "mean-field",
  gip: "GIP",
  hmc: "HMC",
  nuts: "NUTS",
  sgld: "SGLD",
  metropolis: "Metropolis",
  fbnn: "fBNN",
  livi: "LIVI",
  ensemble: "ensemble",
  map: "MAP",
  "gp-exact": "exact GP",
  gpvi: "variational GP",
};

// shortName is a method's short name, its label failing that.
export function shortName(method, label) {
  return SHORT[method] ?? label ?? method;
}

// ABBREV finds what reads as an abbreviation in a label: a word with two
// capitals or more (ELBO, fBNN, IWBO), or a letter with a hat (R̂, k̂).
const ABBREV = /(?<![\p{L}\d])(?:\p{L}*\p{Lu}\p{L}*\p{Lu}\p{L}*|\p{L}\u0302)(?![\p{L}\d])/gu;

// abbreviations lists the abbreviations in text, each once.
export function abbreviations(text) {
  return [...new Set(String(text).match(ABBREV) ?? [])];
}

// gloss is term's gloss, or undefined.
export function gloss(term) {
  return Object.hasOwn(GLOSSARY, term) ? GLOSSARY[term] : undefined;
}

// Terms longest first, so "R-hat" is found before "R", and a regular
// expression that finds any of them as a whole word.
const TERMS = Object.keys(GLOSSARY).sort((a, b) => b.length - a.length);
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const FIND = new RegExp(`(?<![\\p{L}\\d])(?:${TERMS.map(escape).join("|")})(?![\\p{L}\\d])`, "gu");

// glossSpans splits text into runs, each {text} or {text, gloss} for a
// term of the glossary.
export function glossSpans(text) {
  const out = [];
  let at = 0;
  for (const m of String(text).matchAll(FIND)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index) });
    out.push({ text: m[0], gloss: GLOSSARY[m[0]] });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}

// glossElement wraps every glossary term in el's own text (not inside an
// <abbr>, a form field or a formula) in an <abbr title>: static labels,
// headings, chips, legends and table heads, once they hold their text.
export function glossElement(el) {
  const doc = el.ownerDocument;
  const walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) =>
      n.parentElement?.closest("abbr, math, script, style, option, textarea, [data-no-gloss]")
        ? NodeFilter.FILTER_REJECT
        : NodeFilter.FILTER_ACCEPT,
  });
  const nodes = [];
  while (walker.nextNode()) nodes.push(walker.currentNode);
  for (const n of nodes) {
    const spans = glossSpans(n.data);
    if (!spans.some((s) => s.gloss)) continue;
    // One span for what was one text node: in a flex container (a
    // figure's caption) the text stays one item, not a row of pieces.
    const frag = doc.createElement("span");
    for (const s of spans) {
      if (!s.gloss) {
        frag.append(s.text);
        continue;
      }
      const a = doc.createElement("abbr");
      a.title = s.gloss;
      a.textContent = s.text;
      frag.append(a);
    }
    n.replaceWith(frag);
  }
}

// LABELS are the page's labels: headings, control labels, folds, chips,
// legends, captions and table heads. A gloss goes on every term in them.
export const LABELS = "h1, h2, h3, label, summary, .chip, .plot-legend li, figcaption, dt, th, .claim";

// glossPage glosses the labels under root, now and as they are written:
// a legend or a table drawn later is glossed when it lands.
export function glossPage(root) {
  const all = (el) => {
    if (el.matches(LABELS)) glossElement(el);
    for (const e of el.querySelectorAll(LABELS)) glossElement(e);
  };
  all(root);
  new MutationObserver((records) => {
    for (const r of records) {
      for (const n of r.addedNodes) {
        const el = n.nodeType === 1 ? n : n.parentElement;
        if (!el || el.closest("abbr")) continue; // our own
        const label = el.closest(LABELS);
        if (label) glossElement(label);
        else all(el);
      }
    }
  }).observe(root, { childList: true, subtree: true });
}
