package engine

import (
	"log/slog"
	"sync/atomic"
	"time"
)

// RunOptions tunes a Run. Zero values take the defaults.
type RunOptions struct {
	MaxSteps     int64         // step budget; 0 is unlimited
	FrameRate    float64       // frames published per second, default 25
	HistoryCap   int           // points kept per series, default 1024
	BandSamples  int           // functions drawn for the band, default 20
	ShownSamples int           // sampled functions sent, default 5
	Speed        float64       // initial steps-per-second cap; 0 is as fast as possible
	Log          *slog.Logger  // default slog.Default()
	BatchTime    time.Duration // longest stretch of steps between command checks, default 10ms
	// Stepping, when set, counts the runs sharing it that are stepping now
	// (a Registry's runs). With more of them than cores a batch is cut
	// short so that every run comes round often enough to publish at its
	// frame rate: the Go scheduler takes them in turn, one batch each.
	Stepping *atomic.Int64
}

func (o RunOptions) withDefaults() RunOptions {
	if o.FrameRate <= 0 {
		o.FrameRate = 25
	}
	if o.HistoryCap <= 0 {
		o.HistoryCap = 1024
	}
	if o.BandSamples <= 0 {
		o.BandSamples = 20
	}
	if o.ShownSamples <= 0 {
		o.ShownSamples = 5
	}
	o.ShownSamples = min(o.ShownSamples, o.BandSamples)
	if o.Log == nil {
		o.Log = slog.Default()
	}
	if o.BatchTime <= 0 {
		o.BatchTime = 10 * time.Millisecond
	}
	return o
}

// DefaultRunOptions returns the options a zero RunOptions takes, written
// out, for flags to start from. Log stays nil (slog.Default() when used) so
// a caller's logger still replaces it.
func DefaultRunOptions() RunOptions {
	o := RunOptions{}.withDefaults()
	o.Log = nil
	return o
}
