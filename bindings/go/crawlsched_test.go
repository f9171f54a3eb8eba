package crawlsched

import (
	"errors"
	"runtime"
	"strings"
	"testing"
)

func TestVersionAndABI(t *testing.T) {
	if LibraryABIVersion() != ABIVersion {
		t.Fatalf("ABI %d, binding %d", LibraryABIVersion(), ABIVersion)
	}
	if v := Version(); strings.Count(v, ".") != 2 {
		t.Errorf("Version() = %q", v)
	}
}

func TestErrorValues(t *testing.T) {
	if StatusInvalidArgument.String() != "CRAWLSCHED_INVALID_ARGUMENT" {
		t.Errorf("status string %q", StatusInvalidArgument.String())
	}
	if Status(999).String() != "CRAWLSCHED_UNKNOWN_STATUS" {
		t.Errorf("unknown status string %q", Status(999).String())
	}
	_, err := NewExponential(-1)
	wantErr(t, "exponential(-1)", err, ErrInvalidArgument)
	if errors.Is(err, ErrNotFound) {
		t.Error("an invalid-argument error matches ErrNotFound")
	}
	var e *Error
	if !errors.As(err, &e) || e.Status != StatusInvalidArgument || !strings.Contains(err.Error(), "CRAWLSCHED_INVALID_ARGUMENT") {
		t.Errorf("error %v", err)
	}
}

// The thread-local last error is only meaningful on a locked OS thread.
func TestThreadLastError(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	_, err := NewGamma(-1, 1)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("no error: %v", err)
	}
	st, msg := ThreadLastError()
	if st != StatusInvalidArgument || msg != e.Message {
		t.Errorf("last error (%v, %q), call error (%v, %q)", st, msg, e.Status, e.Message)
	}
}
