// Frame extras: the family-specific data a frame may carry at its top level
// (sim/wire's Extra), each under a key, and the view that draws it. A view
// is a class constructed with its panel, with onExtra(payload) for every
// frame that carries its key and, optionally, draw(), clear() and
// onReconnect(). Adding a view is one Go producer of the key and one entry
// here.
import { InducingView } from "./dataedit.js";
import { JointView } from "./joint.js";
import { McmcView } from "./mcmc.js";
import { WeightsView } from "./weights.js";

export const VIEWS = {
  draws: McmcView, // samplers: recent draws, R-hat and ESS (sim/engine's draw recorder)
  weights: WeightsView, // weight-space VI: one weight's marginal (sim/engine's weight sets)
  joint: JointView, // the linear model: (b0, b) over the exact posterior (sim/model's Joint, from the methods' Views)
  inducing: InducingView, // GIP: first-layer inducing inputs on the x-axis, draggable (sim/gip's Views)
};
