// Package crawlsched is the Go binding of crawlsched, scheduling mathematics
// for web crawlers (a Rust library with a C ABI).
//
// Every handle type (Dist, FreshnessModel, Scheduler, ...) owns one C
// handle. Call Close when done; a finalizer frees forgotten handles as a
// safety net only. Close is idempotent but must not race with other calls
// on the same value. Handles may otherwise be shared between goroutines:
// immutable ones are read without locking and mutable ones (Scheduler,
// Estimator, MDPBuilder, MDPSolver, ProbePlanner) serialise their calls
// inside the library.
//
// Every failure is returned as an *Error carrying the library's status and
// message. Each call passes its own crawlsched_error_t, so messages never
// leak between goroutines (the library's thread-local last error is never
// used: goroutines move between OS threads). Test the kind with errors.Is:
//
//	if errors.Is(err, crawlsched.ErrNotFound) { ... }
//
// The package checks at init that the linked library has the ABI version
// it was written for (CRAWLSCHED_ABI_VERSION) and panics with a clear
// message otherwise, since no call into a mismatched library is safe.
package crawlsched

/*
#include <stdlib.h>
#include "crawlsched.h"

*/
import "C"

import (
	"fmt"
	"unsafe"
)

// ABIVersion is the CRAWLSCHED_ABI_VERSION this binding was written for.
const ABIVersion = 2

// Status is a crawlsched status code (crawlsched_status_t). A Status is
// also an error, so the Err* sentinels below are Status values.
type Status int32

// Status codes (docs/c-api.md). A later library may add values: treat
// unknown ones as failures.
const (
	StatusOK              Status = C.CRAWLSCHED_OK
	StatusNullArgument    Status = C.CRAWLSCHED_NULL_ARGUMENT
	StatusInvalidArgument Status = C.CRAWLSCHED_INVALID_ARGUMENT
	StatusInfeasible      Status = C.CRAWLSCHED_INFEASIBLE
	StatusNotConverged    Status = C.CRAWLSCHED_NOT_CONVERGED
	StatusTooLarge        Status = C.CRAWLSCHED_TOO_LARGE
	StatusBufferTooSmall  Status = C.CRAWLSCHED_BUFFER_TOO_SMALL
	StatusNotFound        Status = C.CRAWLSCHED_NOT_FOUND
	StatusCancelled       Status = C.CRAWLSCHED_CANCELLED
	StatusNumerical       Status = C.CRAWLSCHED_NUMERICAL
	StatusPanic           Status = C.CRAWLSCHED_PANIC
	StatusInternal        Status = C.CRAWLSCHED_INTERNAL
)

// Sentinels for errors.Is: errors.Is(err, ErrInvalidArgument) is true when
// err is an *Error with that status.
var (
	ErrNullArgument    error = StatusNullArgument
	ErrInvalidArgument error = StatusInvalidArgument
	ErrInfeasible      error = StatusInfeasible
	ErrNotConverged    error = StatusNotConverged
	ErrTooLarge        error = StatusTooLarge
	ErrBufferTooSmall  error = StatusBufferTooSmall
	ErrNotFound        error = StatusNotFound
	ErrCancelled       error = StatusCancelled
	ErrNumerical       error = StatusNumerical
	ErrPanic           error = StatusPanic
	ErrInternal        error = StatusInternal
)

// String is the library's name for the status, e.g.
// "CRAWLSCHED_INVALID_ARGUMENT" ("CRAWLSCHED_UNKNOWN_STATUS" if unknown).
func (s Status) String() string {
	return C.GoString(C.crawlsched_status_string(C.int32_t(s)))
}

// Error makes a Status usable as an errors.Is target.
func (s Status) Error() string { return s.String() }

// Error is a failed call: the library's status and message.
type Error struct {
	Status  Status
	Message string
}

func (e *Error) Error() string {
	if e.Message == "" {
		return "crawlsched: " + e.Status.String()
	}
	return "crawlsched: " + e.Status.String() + ": " + e.Message
}

// Is reports whether target is this error's Status (the Err* sentinels), or
// an *Error with the same status and message.
func (e *Error) Is(target error) bool {
	switch t := target.(type) {
	case Status:
		return t == e.Status
	case *Error:
		return t.Status == e.Status && t.Message == e.Message
	}
	return false
}

// Version is the linked library's version, "MAJOR.MINOR.PATCH".
func Version() string { return C.GoString(C.crawlsched_version()) }

// LibraryABIVersion is the ABI version of the linked library
// (crawlsched_abi_version()); init has checked it equals ABIVersion.
func LibraryABIVersion() uint32 { return uint32(C.crawlsched_abi_version()) }

func init() {
	if err := abiMismatch(C.CRAWLSCHED_ABI_VERSION, LibraryABIVersion(), Version()); err != nil {
		panic(err)
	}
}

// abiMismatch explains why the header this package was compiled against
// (header) or the linked library (lib) cannot be used, or returns nil.
func abiMismatch(header, lib uint32, libVersion string) error {
	if header != ABIVersion {
		return fmt.Errorf("crawlsched: this Go binding was written for ABI version %d but compiled against a crawlsched.h of ABI version %d; use the binding that matches the header",
			ABIVersion, header)
	}
	if lib != ABIVersion {
		return fmt.Errorf("crawlsched: the linked libcrawlsched (version %s) has ABI version %d, but this Go binding needs ABI version %d (libcrawlsched.so.%d); rebuild or install the matching library",
			libVersion, lib, ABIVersion, ABIVersion)
	}
	return nil
}

// cerr is the caller-owned error struct passed to every call.
type cerr = C.crawlsched_error_t

// check turns a status and its error struct into an error.
func check(st C.crawlsched_status_t, e *cerr) error {
	if st == C.CRAWLSCHED_OK {
		return nil
	}
	return &Error{Status: Status(st), Message: message(e)}
}

// message copies the NUL-terminated message out of the error struct in Go
// (C.GoString would make every caller's struct escape to the heap).
func message(e *cerr) string {
	b := unsafe.Slice((*byte)(unsafe.Pointer(&e.message[0])), len(e.message))
	for i, c := range b {
		if c == 0 {
			return string(b[:i])
		}
	}
	return string(b)
}

// closedErr is the error of a call on a nil or closed handle (the call is
// not forwarded: a freed C pointer must never reach the library).
func closedErr(kind string) error {
	return &Error{Status: StatusNullArgument, Message: kind + " is nil or closed"}
}

func lenErr(what string, got, want int) error {
	return &Error{Status: StatusInvalidArgument, Message: fmt.Sprintf("%s has length %d, expected %d", what, got, want)}
}

// Slice pointers: the library reads or fills them during the call only
// (C never keeps them), so Go memory may be passed directly.
func f64p(s []float64) *C.double {
	if len(s) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&s[0]))
}

func u64p(s []uint64) *C.uint64_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint64_t)(unsafe.Pointer(&s[0]))
}

func u32p(s []uint32) *C.uint32_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint32_t)(unsafe.Pointer(&s[0]))
}

func u8p(s []uint8) *C.uint8_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.uint8_t)(unsafe.Pointer(&s[0]))
}

func i64p(s []int64) *C.int64_t {
	if len(s) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&s[0]))
}

func sz(n int) C.size_t { return C.size_t(n) }

func cbool(b bool) C.int32_t {
	if b {
		return 1
	}
	return 0
}

// ThreadLastError is the library's per-OS-thread last error
// (crawlsched_last_error_status and _message), for completeness. A
// goroutine may move between OS threads between two calls, so it is only
// meaningful inside runtime.LockOSThread; the binding itself never uses it
// (every *Error comes from the call's own error struct).
func ThreadLastError() (Status, string) {
	st := C.crawlsched_last_error_status()
	return Status(st), C.GoString(C.crawlsched_last_error_message())
}
