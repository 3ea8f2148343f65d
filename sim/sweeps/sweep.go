package sweeps

import (
	"encoding/json"
	"slices"
	"sync"
	"time"

	"github.com/posterior-playground/playground/sim/experiment"
)

// Status is where a sweep is.
type Status string

// A sweep runs until every value is in (done), it is cancelled, or a run
// fails (diverged, say).
const (
	Running   Status = "running"
	Done      Status = "done"
	Cancelled Status = "cancelled"
	Failed    Status = "failed"
)

// Point is one finished value of a sweep: a data set's bounds (the
// SweepPoint's), or a target sweep's arms, each against the exact answer
// at that value.
type Point struct {
	experiment.SweepPoint
	Arms []ArmPoint `json:"methods,omitempty"`
}

// MarshalJSON writes a target sweep's point without the bounds it has
// not: its index, value, seeds and methods.
func (p Point) MarshalJSON() ([]byte, error) {
	if p.Arms == nil {
		return json.Marshal(p.SweepPoint)
	}
	return json.Marshal(struct {
		Index int        `json:"index"`
		Value float64    `json:"value"`
		Seeds int        `json:"seeds"`
		Arms  []ArmPoint `json:"methods"`
	}{p.Index, p.Value, p.Seeds, p.Arms})
}

// Event is one step of a sweep's progress as a viewer receives it: a run
// finished (with the point when all seeds of its value are in), or the
// sweep ended. Seq counts a sweep's events from 1, so a viewer that
// reconnects asks for those after the last it saw.
type Event struct {
	Seq      int    `json:"seq"`
	Type     string `json:"type"` // "progress" or "end"
	Finished int    `json:"finished"`
	Total    int    `json:"total"`
	Point    *Point `json:"point,omitempty"`
	Status   Status `json:"status"`
	Message  string `json:"message,omitempty"`
}

// Info is a sweep's state: its request, progress and the points so far.
type Info struct {
	ID       string     `json:"id"`
	Status   Status     `json:"status"`
	Message  string     `json:"message,omitempty"`
	Finished int        `json:"finished"`
	Total    int        `json:"total"`
	Param    string     `json:"param"`
	Values   []float64  `json:"values"`
	LogX     bool       `json:"log_x"`
	Points   []Point    `json:"points"` // finished values, in the order of values
	Request  Request    `json:"request"`
	Workers  int        `json:"workers"`
	Created  time.Time  `json:"created"`
	Ended    *time.Time `json:"ended,omitempty"`
}

// Sweep is one sweep in the registry. At most values × seeds + 2 events
// are kept, so a sweep's memory is bounded by the browser's limits.
type Sweep struct {
	id, client string
	plan       *plan
	total      int
	workers    int
	created    time.Time
	cancel     func()
	done       chan struct{} // closed when the workers have stopped
	now        func() time.Time

	mu       sync.Mutex
	status   Status
	message  string
	finished int
	points   []Point // completion order
	events   []Event
	changed  chan struct{} // closed and replaced at every event
	ended    time.Time
}

func newSweep(id, client string, p *plan, workers int, now func() time.Time) *Sweep {
	s := &Sweep{id: id, client: client, plan: p, total: p.runs, workers: workers,
		created: now(), done: make(chan struct{}), now: now, status: Running,
		changed: make(chan struct{})}
	s.record(Event{Type: "progress"})
	return s
}

// ID is the sweep's id.
func (s *Sweep) ID() string { return s.id }

// Client is the client key the sweep was created for: the only one that
// may cancel it.
func (s *Sweep) Client() string { return s.client }

// Done is closed when the sweep's workers have stopped.
func (s *Sweep) Done() <-chan struct{} { return s.done }

// Info returns the sweep's state.
func (s *Sweep) Info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := Info{ID: s.id, Status: s.status, Message: s.message, Finished: s.finished, Total: s.total,
		Param: s.plan.req.Param, Values: slices.Clone(s.plan.values), LogX: s.plan.logX,
		Points: slices.Clone(s.points), Request: s.plan.req, Workers: s.workers, Created: s.created}
	slices.SortFunc(in.Points, func(a, b Point) int { return a.Index - b.Index })
	if in.Points == nil {
		in.Points = []Point{}
	}
	if !s.ended.IsZero() {
		t := s.ended
		in.Ended = &t
	}
	return in
}

// Events returns the events after the first from, a channel closed at the
// next event, and whether the sweep has ended (its "end" event is the last
// of all; there are no more after it).
func (s *Sweep) Events(from int) (evs []Event, changed <-chan struct{}, ended bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	from = max(0, min(from, len(s.events)))
	return slices.Clone(s.events[from:]), s.changed, s.status != Running
}

// record appends an event, under s.mu (or before s is shared).
func (s *Sweep) record(ev Event) {
	ev.Seq = len(s.events) + 1
	ev.Finished, ev.Total, ev.Status = s.finished, s.total, s.status
	if ev.Type == "end" {
		ev.Message = s.message
	}
	s.events = append(s.events, ev)
	close(s.changed)
	s.changed = make(chan struct{})
}

// dataProgress is the experiment.SweepProgress of a data set's sweep.
func (s *Sweep) dataProgress(finished, _ int, p *experiment.SweepPoint) {
	var pt *Point
	if p != nil {
		pt = &Point{SweepPoint: *p}
	}
	s.progress(finished, pt)
}

// progress records a finished run and, when all runs of a value are in,
// its point. Runs that finish after a cancel are not recorded: the sweep
// has ended for its viewers.
func (s *Sweep) progress(finished int, p *Point) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status != Running {
		return
	}
	s.finished = finished
	ev := Event{Type: "progress"}
	if p != nil {
		pt := *p
		s.points = append(s.points, pt)
		ev.Point = &pt
	}
	s.record(ev)
}

// end moves a running sweep to status and records the "end" event; it
// reports false when the sweep had ended already.
func (s *Sweep) end(status Status, message string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.status != Running {
		return false
	}
	s.status, s.message, s.ended = status, message, s.now()
	s.record(Event{Type: "end"})
	return true
}

// endedAt returns when the sweep ended (zero while it runs).
func (s *Sweep) endedAt() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended
}
