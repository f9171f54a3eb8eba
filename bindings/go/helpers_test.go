package crawlsched

import (
	"errors"
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.IsNaN(got) || math.Abs(got-want) > tol {
		t.Errorf("%s = %.15g, want %.15g (tol %g)", what, got, want, tol)
	}
}

func ok(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// wantErr checks err is an *Error of the given kind with a message.
func wantErr(t *testing.T, what string, err error, kind error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %v", what, kind)
		return
	}
	if !errors.Is(err, kind) {
		t.Errorf("%s: error %v, want %v", what, err, kind)
	}
	var e *Error
	if !errors.As(err, &e) || e.Message == "" {
		t.Errorf("%s: error %#v is not an *Error with a message", what, err)
	}
}

func must[T any](t *testing.T) func(T, error) T {
	return func(v T, err error) T {
		t.Helper()
		ok(t, err)
		return v
	}
}
