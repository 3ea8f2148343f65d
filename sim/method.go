package sim

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Family groups methods by what they produce.
type Family string

const (
	FamilyVI    Family = "vi"    // optimises a bound; objective is an ELBO estimate
	FamilyMCMC  Family = "mcmc"  // draws samples; objective is the log posterior
	FamilyExact Family = "exact" // closed form
)

// ControlSpec describes one control of a method: a number in [Min, Max], or,
// when Options is non-empty, one of Options.
type ControlSpec struct {
	Name    string   `json:"name"`
	Label   string   `json:"label"`
	Help    string   `json:"help"`
	Min     float64  `json:"min"`
	Max     float64  `json:"max"`
	Step    float64  `json:"step"`
	Default Value    `json:"default"`
	Log     bool     `json:"log"`     // a slider should move on a log scale
	Integer bool     `json:"integer"` // only whole numbers
	Live    bool     `json:"live"`    // Set acts on a running loop
	Options []string `json:"options,omitempty"`
	// OptionLabels, when set, names each of Options for a person, in the
	// same order ("reverse KL (the ELBO)" for "reverse_kl"); links, flags
	// and the API use Options.
	OptionLabels []string `json:"option_labels,omitempty"`
	// Bound says what sets Max when the data do ("the number of training
	// points"); range errors quote it.
	Bound string `json:"bound,omitempty"`
	// Unit is set for a value measured in the data's units (a noise std,
	// a lengthscale): methods read it in model units, a user's file gives
	// it in the file's (MethodSpec.InUnits, ToModelUnits).
	Unit Unit `json:"unit,omitempty"`
	// Toggle marks an on/off setting: a whole number in [0, 1], 1 on,
	// shown as a checkbox rather than a slider.
	Toggle bool `json:"toggle,omitempty"`
	// List, when positive, makes the control a list: a string of at most
	// List comma-separated whole numbers in [Min, Max], "" or "0" for the
	// empty list (ParseList), e.g. a network's hidden widths "50,50".
	List int `json:"list,omitempty"`
}

// Textual reports whether the control's values are strings (a choice or a
// list) rather than numbers: how a link, a flag or a form field is read.
func (c ControlSpec) Textual() bool { return len(c.Options) > 0 || c.List > 0 }

// Canonical returns v as the control stores it: a list control's value
// written back as ParseList read it ("50,50" for " 50 , 50 ", "50" for
// "+50", "0" for the empty list), so that links, replays and the run's
// config name one network one way; any other control's v is unchanged. A
// value that does not pass Validate is returned as it is.
func (c ControlSpec) Canonical(v Value) Value {
	if c.List <= 0 || !v.IsChoice() {
		return v
	}
	xs, err := ParseList(v.Choice, c.List, int(c.Min), int(c.Max))
	if err != nil {
		return v
	}
	return Choice(FormatList(xs))
}

// FormatList writes xs as a list control's canonical value: the numbers
// comma-separated without spaces, "0" for none.
func FormatList(xs []int) string {
	if len(xs) == 0 {
		return "0"
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ",")
}

// ParseList reads a list control's value: at most maxLen comma-separated
// whole numbers in [lo, hi], spaces allowed around each; "" and "0" are
// the empty list. The error says what is allowed.
func ParseList(s string, maxLen, lo, hi int) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" || s == "0" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	allowed := fmt.Sprintf("allowed: up to %d comma-separated whole numbers in [%d, %d], or 0 for none", maxLen, lo, hi)
	if len(parts) > maxLen {
		return nil, fmt.Errorf("%q has %d entries (%s)", s, len(parts), allowed)
	}
	out := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil || n < lo || n > hi {
			return nil, fmt.Errorf("%q: entry %q is not a whole number in [%d, %d] (%s)", s, p, lo, hi, allowed)
		}
		out[i] = n
	}
	return out, nil
}

// MethodSpec describes a method and its controls.
type MethodSpec struct {
	Name     string        `json:"name"`
	Label    string        `json:"label"`
	Family   Family        `json:"family"`
	Models   []string      `json:"models"` // models it supports, first is the default; empty for GP methods
	Controls []ControlSpec `json:"controls"`
	Traces   []string      `json:"traces"` // names of the values Trace returns, in order
	// TraceInfo says, by trace name, how a person reads each trace: its
	// label, and when it means something. The names stay the keys (links,
	// the command line and the API use them).
	TraceInfo map[string]TraceInfo `json:"trace_info,omitempty"`
	// Capabilities lists what the method does that the engine or a view
	// treats differently; they are read here rather than from a list of
	// method names.
	Capabilities []Capability `json:"capabilities,omitempty"`
	// MaxPoints is the most training points the method accepts, set by
	// what a step costs (the exact GP's N³); MaxPointsWhy says why, for the
	// error a larger data set gets (CheckData). Every method states one; a
	// method whose cost grows linearly takes MaxDataPoints.
	MaxPoints    int    `json:"max_points"`
	MaxPointsWhy string `json:"max_points_why,omitempty"`
}

// MaxDataPoints is the most training points any data set has (an upload's
// row limit, datasets.MaxCSVRows): the bound of a method whose cost grows
// linearly in them.
const MaxDataPoints = 10_000

// CheckData returns a *FieldError naming data when d has more training
// points than the method accepts. It only counts: it is cheap enough to run
// before anything is built.
func (s MethodSpec) CheckData(d *Dataset) error {
	if d == nil || s.MaxPoints <= 0 || d.N() <= s.MaxPoints {
		return nil
	}
	msg := fmt.Sprintf("%d training points is more than %s accepts: at most %d", d.N(), s.Name, s.MaxPoints)
	if s.MaxPointsWhy != "" {
		msg += " (" + s.MaxPointsWhy + ")"
	}
	return &FieldError{Field: "data", Message: msg}
}

// TraceInfo is how a trace is shown.
type TraceInfo struct {
	Label string `json:"label"` // "Noise std σ", never the machine name
	// Only, when set, lists by control name (or TaskKey, the data's task)
	// the values under which the trace means something: a period under
	// the periodic kernel only, a noise std for regression only. A view
	// hides the trace otherwise.
	Only map[string][]string `json:"only,omitempty"`
	// Unit, when set, is the data unit the method traces the value in
	// (model units); the engine records it in the plot's units, as the
	// panel's axes and readouts are, so a noise trace and the noise
	// readout agree.
	Unit Unit `json:"unit,omitempty"`
}

// TaskKey is the key of TraceInfo.Only that stands for the data's task
// (Dataset.Task: "regression" or "classification"), not a control.
const TaskKey = "task"

// RegressionOnly is TraceInfo.Only for a trace that means nothing on
// classification data (an observation noise).
func RegressionOnly() map[string][]string {
	return map[string][]string{TaskKey: {string(Regression)}}
}

// Capability is a behaviour a method declares in its spec.
type Capability string

// AdaptsStepSize: the method tunes its step size during warm-up (HMC and
// NUTS), so the step-size trace is labelled as adapting there.
const AdaptsStepSize Capability = "adapts_step"

// Parallel: the method steps in several goroutines (a sampler's chains),
// so the engine tells it how many it may use (Env.Threads).
const Parallel Capability = "parallel"

// Has reports whether the spec declares capability c.
func (s MethodSpec) Has(c Capability) bool { return slices.Contains(s.Capabilities, c) }

// Control returns the spec of the named control.
func (s MethodSpec) Control(name string) (ControlSpec, bool) {
	for _, c := range s.Controls {
		if c.Name == name {
			return c, true
		}
	}
	return ControlSpec{}, false
}

// Value is a control's value: a number, or a choice among options. A value
// given as a string is a choice even when empty, so "" is never read as the
// number 0: Choice("") fits no control.
type Value struct {
	Num    float64
	Choice string // set for choice controls
	choice bool   // made by Choice: a string, even ""
}

// Num returns a numeric Value.
func Num(v float64) Value { return Value{Num: v} }

// Choice returns a choice Value.
func Choice(s string) Value { return Value{Choice: s, choice: true} }

// IsChoice reports whether v is a string (a choice) rather than a number.
func (v Value) IsChoice() bool { return v.choice || v.Choice != "" }

func (v Value) String() string {
	if v.IsChoice() {
		return v.Choice
	}
	return strconv.FormatFloat(v.Num, 'g', -1, 64)
}

// MarshalJSON writes a number or a string.
func (v Value) MarshalJSON() ([]byte, error) {
	if v.IsChoice() {
		return json.Marshal(v.Choice)
	}
	return json.Marshal(v.Num)
}

// UnmarshalJSON reads a number or a string. Anything else (null, true,
// false, an array, an object) and a number beyond float64 are a
// *json.UnmarshalTypeError, which encoding/json completes with the path of
// the value ("controls.lr"): null is not 0.
func (v *Value) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	fail := func(got string) error {
		return &json.UnmarshalTypeError{Value: got, Type: reflect.TypeFor[Value]()}
	}
	if len(b) == 0 {
		return fail("nothing")
	}
	switch c := b[0]; {
	case c == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*v = Choice(s)
	case c == '-' || '0' <= c && c <= '9':
		var f float64
		if err := json.Unmarshal(b, &f); err != nil {
			return fail("number " + string(b))
		}
		*v = Num(f)
	case c == 'n':
		return fail("null")
	case c == 't' || c == 'f':
		return fail("bool")
	case c == '[':
		return fail("array")
	case c == '{':
		return fail("object")
	default:
		return fail(string(b))
	}
	return nil
}

// Controls holds values by control name.
type Controls map[string]Value

// UnmarshalJSON reads an object of Values (null: none). A value that is not
// a number or a string is a *json.UnmarshalTypeError whose Field ends in
// the control's name ("controls.kl_weight"): encoding/json's own map
// decoding would name only the map.
func (c *Controls) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return &json.UnmarshalTypeError{Value: te.Value, Type: reflect.TypeFor[Controls]()}
		}
		return err
	}
	if raw == nil {
		*c = nil
		return nil
	}
	out := make(Controls, len(raw))
	for _, name := range slices.Sorted(maps.Keys(raw)) { // the first bad value in a fixed order
		var v Value
		if err := v.UnmarshalJSON(raw[name]); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				te.Field = name
			}
			return err
		}
		out[name] = v
	}
	*c = out
	return nil
}

// FieldError is a validation error that names the offending field.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e *FieldError) Error() string { return e.Field + ": " + e.Message }

// Validate checks v against the control's range or options and returns a
// *FieldError naming the field and the allowed values when it does not fit.
func (c ControlSpec) Validate(v Value) error {
	if c.List > 0 {
		if !v.IsChoice() {
			return &FieldError{c.Name, fmt.Sprintf("want a comma-separated list like \"50,50\" (up to %d whole numbers in [%g, %g]), got the number %s", c.List, c.Min, c.Max, v.String())}
		}
		if _, err := ParseList(v.Choice, c.List, int(c.Min), int(c.Max)); err != nil {
			return &FieldError{c.Name, err.Error()}
		}
		return nil
	}
	if len(c.Options) > 0 {
		if !v.IsChoice() {
			return &FieldError{c.Name, fmt.Sprintf("want one of %v, got the number %s", c.Options, v.String())}
		}
		for _, o := range c.Options {
			if v.Choice == o && o != "" {
				return nil
			}
		}
		return &FieldError{c.Name, fmt.Sprintf("%q is not one of %v", v.Choice, c.Options)}
	}
	if v.IsChoice() {
		return &FieldError{c.Name, fmt.Sprintf("want a number in [%g, %g], got the string %q", c.Min, c.Max, v.Choice)}
	}
	x := v.Num
	if x != x || x < c.Min || x > c.Max { // x != x: NaN
		msg := fmt.Sprintf("%s is outside the allowed range [%g, %g]", v.String(), c.Min, c.Max)
		if c.Bound != "" {
			msg += fmt.Sprintf(" (%g: %s)", c.Max, c.Bound)
		}
		return &FieldError{c.Name, msg}
	}
	if c.Integer && x != float64(int64(x)) {
		return &FieldError{c.Name, fmt.Sprintf("%s is not a whole number in [%g, %g]", v.String(), c.Min, c.Max)}
	}
	return nil
}

// Resolve returns a complete set of controls for spec: the defaults,
// overridden by given, list values made canonical (ControlSpec.Canonical).
// It rejects unknown names and invalid values with a *FieldError, and never
// modifies given.
func (s MethodSpec) Resolve(given Controls) (Controls, error) {
	out := make(Controls, len(s.Controls))
	for _, c := range s.Controls {
		out[c.Name] = c.Default
	}
	for _, name := range slices.Sorted(maps.Keys(given)) { // the first bad name, in a fixed order
		v := given[name]
		c, err := s.Check(name, v)
		if err != nil {
			return nil, err
		}
		out[name] = c.Canonical(v)
	}
	return out, nil
}

// ControlNames lists the controls' names in the spec's order.
func (s MethodSpec) ControlNames() []string {
	names := make([]string, len(s.Controls))
	for i, c := range s.Controls {
		names[i] = c.Name
	}
	return names
}

// StepStats reports one step.
type StepStats struct {
	// Objective is the step's estimate of the method's objective, on the
	// scale of the whole data set: a single-sample ELBO for VI, the log
	// posterior density for samplers.
	Objective float64
	// Evals is what the step spent of an equal budget: the gradient
	// evaluations it made, one for each gradient of a log density (or of
	// one Monte Carlo term of an objective) at one parameter value,
	// whatever the data it saw (a minibatch's gradient counts one, as a
	// full batch's); or, for a method that evaluates no gradient
	// (Metropolis), its density evaluations. A closed form that changed
	// nothing spent 0. Runs stopped or paced at the same count of Evals
	// have spent the same.
	Evals int64
}

// Predictive is a set of sampled functions f(x) on a grid, model units,
// without observation noise.
type Predictive struct {
	X       []float64
	Samples [][]float64 // Samples[s][i] = f_s(X[i])
}

// Stepper is what every method does, whatever it is fitted to: it has a
// spec, steps, takes live control changes and traces its parameters. A
// method is fitted either to a data set with a model (Method) or to a
// target density with no data (target.Method, package sim/target); the
// engine runs both and asks each only for what it can show.
type Stepper interface {
	Spec() MethodSpec
	// Step performs one optimiser step or one transition.
	Step() StepStats
	// Set changes a live control on an initialised method. name is one of
	// its live controls and v valid for it (sim.Set checks both); an error
	// (a value the method cannot take in its current state) must leave the
	// method unchanged.
	Set(name string, v Value) error
	// Trace returns the current values of Spec().Traces, in order.
	Trace() []float64
}

// Method is one inference method on one model, fitted to a data set (a
// regression or a classification): it predicts f on the data's grid, the
// band a run shows. A Method is used from one goroutine at a time. Two
// methods initialised alike, with streams from the same seed, step alike
// bit for bit. A method that starts goroutines implements io.Closer, and
// Close ends them. Package sim/simtest checks these rules and the ones
// below on any method.
type Method interface {
	Stepper
	// Init sets up the method on d with controls c, complete and valid for
	// SpecFor(m, d) (sim.Init resolves them), drawing all later randomness
	// from r.
	Init(d *Dataset, c Controls, r *rand.Rand) error
	// Predict draws samples functions on xs (see Predictive) after Init.
	// X is a copy of xs and there are exactly samples functions, each of
	// len(xs), none when samples < 1; a method that cannot predict in its
	// state (a failed factorisation) returns none, and the engine keeps its
	// last band. Its random draws come from a stream of its own, so calling
	// it never changes the training trajectory.
	Predict(xs []float64, samples int) Predictive
}

// DataSpec is implemented by methods whose control ranges or defaults depend
// on the data (gip: at most one inducing point per training point).
type DataSpec interface {
	// SpecFor returns Spec() with its ranges and defaults fitted to d.
	SpecFor(d *Dataset) MethodSpec
}

// SpecFor returns m's spec for data d: SpecFor's when m is a DataSpec,
// Spec() otherwise. Validation everywhere goes through it, so a control's
// range is the same on the command line, in the API and on the page.
func SpecFor(m Method, d *Dataset) MethodSpec {
	if ds, ok := m.(DataSpec); ok && d != nil {
		return ds.SpecFor(d)
	}
	return m.Spec()
}

// Resolve checks d against m's spec for d (CheckData: no more training
// points than m accepts) and resolves given against it (defaults filled
// in, every value checked). It is the one place a method's data size and
// controls are validated before Init, on the command line, in the API and
// on the page: a method's Init may assume a complete, valid set and a data
// set it can afford.
func Resolve(m Method, d *Dataset, given Controls) (Controls, error) {
	spec := SpecFor(m, d)
	if err := spec.CheckData(d); err != nil {
		return nil, err
	}
	return spec.Resolve(given)
}

// Init resolves given for m and d (Resolve) and initialises m with the
// result, which it returns.
func Init(m Method, d *Dataset, given Controls, r *rand.Rand) (Controls, error) {
	c, err := Resolve(m, d, given)
	if err != nil {
		return nil, err
	}
	if err := m.Init(d, c, r); err != nil {
		return nil, err
	}
	return c, nil
}

// Set checks v against the named control of m's spec for d and, when it
// fits, hands it to m.Set: the one place a live change is validated, so a
// method's Set may assume a known, live control and a valid value. It
// returns a *FieldError naming the control, and m changes nothing, when the
// name is unknown, the value is out of range or the control is not live.
func Set(m Method, d *Dataset, name string, v Value) error {
	spec := SpecFor(m, d)
	c, err := spec.Check(name, v)
	if err != nil {
		return err
	}
	if !c.Live {
		return &FieldError{Field: name, Message: "not a live control: it takes effect when the method is initialised again"}
	}
	return m.Set(name, v)
}

// Check returns the named control's spec when v fits it, and a *FieldError
// naming the control and its allowed values otherwise.
func (s MethodSpec) Check(name string, v Value) (ControlSpec, error) {
	c, ok := s.Control(name)
	if !ok {
		field := name
		if field == "" { // an empty key must still name a field
			field = "controls"
		}
		return c, &FieldError{Field: field, Message: fmt.Sprintf("unknown control %q for method %s (allowed: %v)", name, s.Name, s.ControlNames())}
	}
	return c, c.Validate(v)
}
