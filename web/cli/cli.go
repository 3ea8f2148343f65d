package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/posterior-playground/playground/sim"
	"github.com/posterior-playground/playground/web"
)

// exitUsage is the status for bad input: an unknown name or a value out of range.
const exitUsage = 2

// Main runs the command line args (without the program's name), writing to
// stdout and stderr, until it is done or ctx is cancelled, and returns the
// exit status: 0 on success, 2 for bad input (an unknown name or a value out
// of range, reported as a [sim.FieldError], or a typed density that does
// not parse, reported with its position first), 1 for any other failure.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := "serve"
	if len(args) > 0 && (!strings.HasPrefix(args[0], "-") || wantsHelp(args[:1])) {
		cmd, args = args[0], args[1:]
	}
	if wantsHelp([]string{cmd}) { // playground --help
		cmd = "help"
	}
	if cmd == "help" && len(args) > 0 && args[0] != "help" && !wantsHelp(args[:1]) {
		// help CMD ARGS is CMD ARGS --help: "help run --method gip" lists gip's controls.
		cmd, args = args[0], append(slices.Clone(args[1:]), "--help")
	}
	var err error
	switch cmd {
	case "serve":
		err = serve(ctx, args, stdout, stderr)
	case "run":
		err = runOnce(ctx, args, stdout, stderr)
	case "sweep":
		err = sweep(ctx, args, stdout, stderr)
	case "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = &sim.FieldError{Field: "command", Message: fmt.Sprintf("unknown command %q (allowed: serve, run, sweep, help; playground help prints the usage)", cmd)}
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "playground:", err)
	var fe *sim.FieldError
	if errors.As(err, &fe) || isStanError(err) {
		return exitUsage
	}
	return 1
}

func serve(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve")
	addr := fs.String("addr", ":8080", "`ADDR` to listen on")
	var origins stringList
	fs.Var(&origins, "allow-origin", "an extra origin `URL` allowed to open streams and send commands (repeatable)")
	var ancestors stringList
	fs.Var(&ancestors, "allow-frame-ancestor", "an origin `URL` that may embed the pages in a frame, such as a course site (repeatable; *.domain allowed)")
	instance := fs.String("instance", "", "this instance's `NAME` (a-z, 0-9), prefixed to every run id so a balancer can route by it (web/deploy/haproxy.cfg)")
	freeAfter := fs.Duration("free-unwatched", time.Minute, "delete a run nobody has watched for `DURATION`, freeing its slot (it pauses at half that)")
	var proxies stringList
	fs.Var(&proxies, "trust-proxy", "a `CIDR` of reverse proxies whose X-Forwarded-For names the client (repeatable; none by default)")
	drain := fs.Duration("drain-delay", 0, "on SIGTERM, how long /readyz fails (503) while the server still serves, before it stops accepting (`DURATION`, e.g. 5s)")
	cfg := web.DefaultConfig()
	limitFlags(fs, &cfg) // serve_flags.go
	if err := parse(fs, args); errors.Is(err, flag.ErrHelp) {
		return commandHelp(stdout, "serve", fs, args)
	} else if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	cfg.Addr, cfg.AllowedOrigins, cfg.FrameAncestors = *addr, origins, ancestors
	cfg.Instance, cfg.TrustedProxies, cfg.DrainDelay = *instance, proxies, *drain
	if *freeAfter < time.Second || *freeAfter > 24*time.Hour {
		return &sim.FieldError{Field: "free-unwatched", Message: fmt.Sprintf("%v is outside [1s, 24h]", *freeAfter)}
	}
	cfg.ExpireAfter, cfg.IdleTimeout = *freeAfter, *freeAfter/2
	srv, err := web.New(cfg, log)
	if err != nil {
		return err
	}
	log.Info("serving", "addr", *addr)
	return srv.ListenAndServe(ctx)
}
