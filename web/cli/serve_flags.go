package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/web"
)

// limitFlags registers serve's flags for the cost budget, the caps per
// client address and the draws downloads on cfg, which holds the
// defaults: a flag left out, or given 0, keeps its default.
func limitFlags(fs *flag.FlagSet, cfg *web.Config) {
	b := &cfg.Budget
	fs.Var((*byteSize)(&b.RunBytes), "run-memory", "the memory one run may hold, by its estimate (`SIZE` such as 512MB or 2GB; 0: 1GB); a dearer run is refused naming what to lower")
	fs.Var((*byteSize)(&b.TotalBytes), "total-memory", "the memory all runs may hold together, by their estimates (`SIZE`; 0: 8GB); past it a new run waits for others to end (429)")
	fs.Float64Var(&b.StepFLOPs, "step-flops", 0, "the floating-point operations one step may take (`N`; 0: 1e12)")
	fs.Float64Var(&b.PollFLOPs, "poll-flops", 0, "the floating-point operations a step may take between two checks for a stop (`N`; 0: 1e9, about 0.1 s of a core: a delete stops a step within that)")

	c := &cfg.Clients
	fs.IntVar(&c.SessionBurst, "client-sessions", 0, "browser sessions one client address may start at once (`N`; 0: 120)")
	fs.Float64Var(&c.SessionRate, "client-session-rate", 0, "sessions a second it may start after those (`RATE`; 0: 1)")
	fs.IntVar(&c.Runs, "client-runs", 0, "runs one client address may hold over its sessions (`N`; 0: 60)")
	fs.IntVar(&c.Uploads, "client-uploads", 0, "uploaded files one client address may hold (`N`; 0: 28)")
	fs.IntVar(&c.Sweeps, "client-sweeps", 0, "sweeps one client address may run at once (`N`; 0: 1)")
	fs.IntVar(&c.Exports, "client-exports", 0, "draws downloads one client address may have in flight (`N`; 0: 4)")
	fs.IntVar(&c.Streams, "client-streams", 0, "run and sweep streams one client address may hold open (`N`; 0: 480)")

	e := &cfg.Exports
	fs.IntVar(&e.MaxInFlight, "exports", 0, "draws downloads in flight in all (`N`; 0: 8)")
	fs.DurationVar(&e.StepWait, "export-step-wait", 0, "how long a download waits for its run to finish a step before a 503 (`DURATION`; 0: 2s)")
	fs.Var((*intBytes)(&e.MinRate), "export-min-rate", "the bytes a second a download must keep up after its grace (`SIZE` such as 128KB; 0: 128KB)")
	fs.DurationVar(&e.Grace, "export-grace", 0, "how long a download may go slower than --export-min-rate (`DURATION`; 0: 30s)")
}

// byteSize is a flag of bytes written as a number with an optional unit:
// B, KB, MB or GB, each 1024 times the last ("512MB", "2GB", "1.5GB").
type byteSize int64

func (s *byteSize) String() string {
	if s == nil {
		return "0"
	}
	return formatBytes(int64(*s))
}

// formatBytes writes n in the largest unit parseBytes reads back exactly
// ("1GB", not 1073741824, in --help's defaults).
func formatBytes(n int64) string {
	for _, u := range []struct {
		name string
		size int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}} {
		if n != 0 && n%u.size == 0 {
			return strconv.FormatInt(n/u.size, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

func (s *byteSize) Set(v string) error {
	n, err := parseBytes(v)
	if err != nil {
		return err
	}
	*s = byteSize(n)
	return nil
}

// intBytes is byteSize for an int.
type intBytes int

func (s *intBytes) String() string {
	if s == nil {
		return "0"
	}
	return formatBytes(int64(*s))
}

func (s *intBytes) Set(v string) error {
	n, err := parseBytes(v)
	if err != nil {
		return err
	}
	*s = intBytes(n)
	return nil
}

// parseBytes reads a size: a non-negative number and an optional unit.
func parseBytes(v string) (int64, error) {
	s := strings.ToUpper(strings.TrimSpace(v))
	mult := 1.0
	for _, u := range []struct {
		suffix string
		mult   float64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || !(x >= 0) || x*mult > 1<<50 {
		return 0, fmt.Errorf("want a size such as 512MB or 2GB")
	}
	return int64(x * mult), nil
}
