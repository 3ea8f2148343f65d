package cli

import (
	"flag"
	"testing"
	"time"

	"github.com/posterior-playground/playground/web"
)

// TestServeLimitFlags: the budget, client and export flags reach the
// server's config; sizes take units.
func TestServeLimitFlags(t *testing.T) {
	cfg := web.DefaultConfig()
	fs := newFlagSet("serve")
	limitFlags(fs, &cfg)
	err := parse(fs, []string{"--run-memory", "512MB", "--total-memory=1.5GB", "--step-flops", "2e11", "--poll-flops", "5e8",
		"--client-runs", "30", "--client-session-rate", "0.5", "--client-streams", "100", "--exports", "3", "--export-min-rate", "64KB", "--export-grace", "10s"})
	if err != nil {
		t.Fatal(err)
	}
	b, c, e := cfg.Budget, cfg.Clients, cfg.Exports
	if b.RunBytes != 512<<20 || b.TotalBytes != 3<<29 || b.StepFLOPs != 2e11 || b.PollFLOPs != 5e8 {
		t.Errorf("budget %+v", b)
	}
	if c.Runs != 30 || c.SessionRate != 0.5 || c.Streams != 100 || c.Uploads != 0 {
		t.Errorf("clients %+v (unset: 0, the default)", c)
	}
	if e.MaxInFlight != 3 || e.MinRate != 64<<10 || e.Grace != 10*time.Second {
		t.Errorf("exports %+v", e)
	}
	for _, bad := range []string{"--run-memory=lots", "--total-memory=-1GB"} {
		if err := parse(newFlagSetWith(t), []string{bad}); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func newFlagSetWith(t *testing.T) *flag.FlagSet {
	t.Helper()
	cfg := web.DefaultConfig()
	fs := newFlagSet("serve")
	limitFlags(fs, &cfg)
	return fs
}
