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

// init panics with this message when the linked library has another ABI.
func TestABIMismatchMessage(t *testing.T) {
	if err := abiMismatch(ABIVersion, ABIVersion, "x"); err != nil {
		t.Errorf("matching versions refused: %v", err)
	}
	err := abiMismatch(ABIVersion, ABIVersion+1, "9.0.0")
	if err == nil || !strings.Contains(err.Error(), "ABI version 2") || !strings.Contains(err.Error(), "9.0.0") {
		t.Errorf("library mismatch: %v", err)
	}
	if err := abiMismatch(ABIVersion+1, ABIVersion, "x"); err == nil || !strings.Contains(err.Error(), "crawlsched.h") {
		t.Errorf("header mismatch: %v", err)
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
