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

// TestByteSizesReadBack: a size flag's default is written in the largest
// exact unit, and reads back as the same number of bytes.
func TestByteSizesReadBack(t *testing.T) {
	for _, n := range []int64{0, 1, 1023, 1 << 10, 1536, 128 << 10, 512 << 20, 3 << 29, 1 << 30, 8 << 30} {
		s := formatBytes(n)
		back, err := parseBytes(s)
		if err != nil || back != n {
			t.Errorf("%d written %q reads back %d, %v", n, s, back, err)
		}
	}
	if got := formatBytes(1 << 30); got != "1GB" {
		t.Errorf("1 GiB written %q, want 1GB", got)
	}
}
