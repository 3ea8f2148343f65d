package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/posterior-playground/playground/sim"
)

func newFlagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself, in one line
	return fs
}

// parse parses args and turns the flag package's errors into one-line field
// errors.
func parse(fs *flag.FlagSet, args []string) error {
	if err := parseArgs(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return &sim.FieldError{Field: "arguments", Message: fmt.Sprintf("unexpected %q", fs.Arg(0))}
	}
	return nil
}

// parseArgs is parse for a command that takes arguments after its flags.
func parseArgs(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var known []string
		fs.VisitAll(func(f *flag.Flag) { known = append(known, "--"+f.Name) })
		return &sim.FieldError{Field: name, Message: fmt.Sprintf("unknown flag (allowed: %s)", strings.Join(known, ", "))}
	}
	// "invalid value "abc" for flag -steps: parse error"
	if rest, ok := strings.CutPrefix(msg, "invalid value "); ok {
		if value, flagPart, ok := strings.Cut(rest, " for flag -"); ok {
			name, why, _ := strings.Cut(flagPart, ": ")
			return &sim.FieldError{Field: name, Message: fmt.Sprintf("%s is not valid (%s)", value, why)}
		}
	}
	return &sim.FieldError{Field: "flags", Message: msg}
}

// flagValue finds --name V or --name=V in args before parsing.
func flagValue(args []string, name string) string {
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// parseGrid reads --grid a:b:n; experiment.Config checks the ranges.
func parseGrid(s string) (lo, hi float64, n int, err error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return 0, 0, 0, fmt.Errorf("want a:b:n, got %q", s)
	}
	if lo, err = strconv.ParseFloat(parts[0], 64); err != nil {
		return 0, 0, 0, fmt.Errorf("a in a:b:n is not a number: %q", parts[0])
	}
	if hi, err = strconv.ParseFloat(parts[1], 64); err != nil {
		return 0, 0, 0, fmt.Errorf("b in a:b:n is not a number: %q", parts[1])
	}
	if n, err = strconv.Atoi(parts[2]); err != nil {
		return 0, 0, 0, fmt.Errorf("n in a:b:n is not a whole number: %q", parts[2])
	}
	return lo, hi, n, nil
}

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
