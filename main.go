// Command playground trains approximate posteriors: `serve` (the default)
// runs the live dashboard, `run` trains one method headless and prints its
// summary, and `sweep` runs one control over a list of values. `help CMD`,
// or --help after a command, prints its usage; package web/cli holds the
// commands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/posterior-playground/playground/web/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
