package numeric

import (
	"fmt"
	"testing"

	"gonum.org/v1/gonum/blas/blas64"

	"github.com/posterior-playground/playground/numeric/fastblas"
)

// Importing numeric must leave fastblas's choice installed as gonum's BLAS.
func TestBLASInstalled(t *testing.T) {
	got, want := fmt.Sprintf("%T", blas64.Implementation()), fmt.Sprintf("%T", fastblas.Implementation())
	if got != want {
		t.Errorf("blas64 implementation is %s, want %s", got, want)
	}
	t.Logf("BLAS: %s (kernels: %v)", got, fastblas.Accelerated())
}
