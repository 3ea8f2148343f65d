package engine

import "time"

// pace is when a run steps and publishes: the speed cap, the next frame,
// and the measured steps per second. It is owned by the run goroutine.
type pace struct {
	speed     float64   // steps-per-second cap, 0 none
	base      time.Time // the cap counts the steps since base…
	baseStep  int64     // …from this step (rebaseSpeed)
	dirty     bool      // something changed since the last publish
	nextFrame time.Time
	rateStep  int64 // steps per second are measured from rateStep…
	rateTime  time.Time
	perSec    float64 // …smoothed over frames
}

// rate updates the steps per second at a frame published now at step,
// stepping (active) or not.
func (p *pace) rate(now time.Time, step int64, active bool) {
	if active && !p.rateTime.IsZero() {
		if dt := now.Sub(p.rateTime).Seconds(); dt > 0 {
			inst := float64(step-p.rateStep) / dt
			p.perSec = 0.5*p.perSec + 0.5*inst // smooths batch jitter
		}
	} else if !active {
		p.perSec = 0
	}
	p.rateStep, p.rateTime = step, now
}
