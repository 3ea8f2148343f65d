package templates

// Option is one entry of a select or checkbox list.
type Option struct {
	Value, Label string
	Selected     bool
}

// Scenario is one card of the home page's gallery.
type Scenario struct {
	Slug, Name, Summary string
	URL                 string
	Data                string   // data set label
	Methods             []string // method labels
	Available           bool     // every method is registered
	Note                string   // an honest caveat, shown on the card
}

// Home is the home page.
type Home struct {
	Scenarios []Scenario
	Setup     Setup
}

// Setup is the "build your own experiment" form: GET /play with data,
// methods and seed.
type Setup struct {
	Datasets []Option
	Methods  []Option
	Seed     uint64
}

// Control is one control of a panel, ready to render.
type Control struct {
	ID, Name, Label, Help string
	Min, Max, Step        string // the control's range, for the number field
	SliderMin, SliderMax  string // the slider's range (log10 for log sliders)
	SliderStep            string
	Value                 string // the control's value, user-facing
	Position              string // the slider's position (log10 of Value for log sliders)
	Log, Integer, Live    bool
	Toggle, On            bool     // an on/off setting (a checkbox) and whether it is on
	Options               []Option // a choice control when non-empty
	List                  bool     // a list control: a text field ("50,50")
	Hidden                bool     // hidden by a classroom link
	Focus                 bool     // highlighted by a scenario
}

// Panel is one method's panel on the play page.
type Panel struct {
	Method, Label, Family, Model string
	Controls                     []Control
	HiddenCount                  int  // controls hidden by the link
	ControlsOpen                 bool // the fold of the controls not in focus starts open
}

// Play is the play page.
type Play struct {
	Title       string
	Description string
	Note        string
	Claim       string // the scenario's claim, checked live by the script
	ClaimStep   int64  // the step it holds from with the scenario's defaults
	DataLabel   string
	DataInfo    string
	Seed        uint64
	Panels      []Panel
	Setup       Setup
	Config      any        // marshalled as JSON into <script id="config">
	Sweep       *SweepView // a scenario's sweep card (sweep.templ), or nil
	Present     bool       // presentation mode: no prose, larger plots and type

	// MaxStepCommand bounds the toolbar's steps per press (the engine's
	// limit; the script reads it from Config's limits).
	MaxStepCommand int
}

// Error is an error page.
type Error struct {
	Status  int
	Title   string
	Field   string
	Message string
}
