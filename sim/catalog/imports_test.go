package catalog_test

import (
	"os/exec"
	"strings"
	"testing"
)

// Method packages compile against sim's contract only: none may depend on
// the engine that runs them or on the wire format (issue 13's seam). Asked
// of the go command, as `go list -deps` would show a reader.
func TestMethodsImportNeitherEngineNorWire(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	const mod = "github.com/posterior-playground/playground/"
	for _, pkg := range []string{"sim/mfvi", "sim/gip", "sim/gp", "sim/livi", "sim/mcmc", "sim/fbnn", "sim/model", "sim/datasets"} {
		out, err := exec.Command(goCmd, "list", "-deps", mod+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if dep == mod+"sim/engine" || dep == mod+"sim/wire" || strings.HasPrefix(dep, mod+"handlers") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
	}
}
