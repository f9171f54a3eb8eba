package crawlsched

/*
#include "crawlsched.h"
*/
import "C"

import "runtime"

// Control carries a memory cap, an iteration cap and a cancel flag for long
// computations (crawlsched_control_t). Cancel may be called from any
// goroutine while a computation that uses the control runs in another:
// that computation then returns ErrCancelled within one iteration. A
// computation keeps its own reference, so closing the control while it
// runs is safe (it just can no longer be cancelled). Close must not race
// with other calls on the same Control.
type Control struct{ p *C.crawlsched_control_t }

// NewControl is a control that is not cancelled and sets no limit of its
// own (the process-wide default memory cap applies).
func NewControl() (*Control, error) {
	var e cerr
	var p *C.crawlsched_control_t
	st := C.crawlsched_control_new(&p, &e)
	if err := check(st, &e); err != nil {
		return nil, err
	}
	c := &Control{p}
	runtime.SetFinalizer(c, (*Control).Close)
	return c, nil
}

// Close frees the control. Idempotent.
func (c *Control) Close() error {
	if c != nil && c.p != nil {
		C.crawlsched_control_free(c.p)
		c.p = nil
		runtime.SetFinalizer(c, nil)
	}
	return nil
}

func (c *Control) ptr() (*C.crawlsched_control_t, error) {
	if c == nil || c.p == nil {
		return nil, closedErr("Control")
	}
	return c.p, nil
}

// optional is the C pointer of c, or NULL for a nil *Control (no control).
func (c *Control) optional() (*C.crawlsched_control_t, error) {
	if c == nil {
		return nil, nil
	}
	return c.ptr()
}

// SetMemoryLimit sets the memory cap in bytes of computations using the
// control: 0 returns to the process-wide default, math.MaxUint64 is unlimited.
func (c *Control) SetMemoryLimit(bytes uint64) error {
	p, err := c.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_control_set_memory_limit(p, C.uint64_t(bytes), &e)
	runtime.KeepAlive(c)
	return check(st, &e)
}

// SetMaxIterations caps the iterations (sweeps, policy-iteration steps,
// threshold vectors) of computations using the control; 0 removes the cap.
// Reaching it gives ErrNotConverged (ErrTooLarge for a threshold search
// that would need more vectors).
func (c *Control) SetMaxIterations(n uint64) error {
	p, err := c.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_control_set_max_iterations(p, C.uint64_t(n), &e)
	runtime.KeepAlive(c)
	return check(st, &e)
}

// Cancel raises the flag: computations using the control return
// ErrCancelled at their next check, and later ones at once, until Reset.
func (c *Control) Cancel() error {
	p, err := c.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_control_cancel(p, &e)
	runtime.KeepAlive(c)
	return check(st, &e)
}

// Reset clears the cancel flag (limits are kept).
func (c *Control) Reset() error {
	p, err := c.ptr()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_control_reset(p, &e)
	runtime.KeepAlive(c)
	return check(st, &e)
}

// IsCancelled reports whether Cancel was called since the last Reset.
func (c *Control) IsCancelled() (bool, error) {
	p, err := c.ptr()
	if err != nil {
		return false, err
	}
	var e cerr
	var out C.int32_t
	st := C.crawlsched_control_is_cancelled(p, &out, &e)
	runtime.KeepAlive(c)
	if err := check(st, &e); err != nil {
		return false, err
	}
	return out != 0, nil
}

// SetDefaultMemoryLimit sets the process-wide memory cap in bytes (0:
// unlimited) for computations whose control sets none. Initially it is
// the machine's physical memory.
func SetDefaultMemoryLimit(bytes uint64) { C.crawlsched_set_default_memory_limit(C.uint64_t(bytes)) }

// DefaultMemoryLimit is the process-wide memory cap in bytes (0: unlimited).
func DefaultMemoryLimit() uint64 { return uint64(C.crawlsched_get_default_memory_limit()) }

// SetControl attaches c to the solver's later runs (nil detaches): its
// memory cap, its iteration cap, and cancellation from another goroutine
// (Run then returns ErrCancelled and keeps the best answer so far, with
// Stats().Converged false).
func (s *MDPSolver) SetControl(c *Control) error {
	p, err := s.ptr()
	if err != nil {
		return err
	}
	cp, err := c.optional()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_mdp_solver_set_control(p, cp, &e)
	runtime.KeepAlive(s)
	runtime.KeepAlive(c)
	return check(st, &e)
}

// SetControl attaches c to the planner's later Plan and AllCosts calls
// (nil detaches), kept across SetProfile and SetConstraints: its memory
// cap covers the DP tables, its iteration cap the passes over the grid
// (one per DP layer or Lagrangian multiplier; ErrNotConverged), and
// cancelling it stops a running plan with ErrCancelled and no result.
func (x *ProbePlanner) SetControl(c *Control) error {
	p, err := x.ptr()
	if err != nil {
		return err
	}
	cp, err := c.optional()
	if err != nil {
		return err
	}
	var e cerr
	st := C.crawlsched_probe_planner_set_control(p, cp, &e)
	runtime.KeepAlive(x)
	runtime.KeepAlive(c)
	return check(st, &e)
}
