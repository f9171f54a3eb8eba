"""Loading the shared library, the ABI check, errors, and the helpers every
wrapper uses (calls with a caller-owned error struct, NumPy buffers,
handles)."""

import ctypes
import ctypes.util
import os
import pathlib
import weakref

import numpy as np

from . import _ffi
from ._ffi import crawlsched_error_t

#: The CRAWLSCHED_ABI_VERSION this package was written for.
ABI_VERSION = 2

_LIB_NAMES = ("libcrawlsched.so", "libcrawlsched.dylib", "crawlsched.dll")


# ---- errors ----


class CrawlschedError(Exception):
    """A failed call: ``status`` (the numeric code), ``status_name`` (e.g.
    ``"CRAWLSCHED_INVALID_ARGUMENT"``) and the library's ``message``.
    Subclasses per status allow ``except crawlsched.NotFoundError``."""

    status = -1

    def __init__(self, status, message):
        self.status = status
        self.status_name = status_string(status)
        self.message = message
        super().__init__(f"{self.status_name}: {message}" if message else self.status_name)


class NullArgumentError(CrawlschedError, ValueError):
    # Also raised, like Go's binding, for a closed handle (a NULL pointer).

    status = _ffi.CRAWLSCHED_NULL_ARGUMENT


class InvalidArgumentError(CrawlschedError, ValueError):
    status = _ffi.CRAWLSCHED_INVALID_ARGUMENT


class InfeasibleError(CrawlschedError):
    status = _ffi.CRAWLSCHED_INFEASIBLE


class NotConvergedError(CrawlschedError):
    status = _ffi.CRAWLSCHED_NOT_CONVERGED


class TooLargeError(CrawlschedError):
    status = _ffi.CRAWLSCHED_TOO_LARGE


class BufferTooSmallError(CrawlschedError):
    status = _ffi.CRAWLSCHED_BUFFER_TOO_SMALL


class NotFoundError(CrawlschedError, LookupError):
    status = _ffi.CRAWLSCHED_NOT_FOUND


class CancelledError(CrawlschedError):
    status = _ffi.CRAWLSCHED_CANCELLED


class NumericalError(CrawlschedError, ArithmeticError):
    status = _ffi.CRAWLSCHED_NUMERICAL


class PanicError(CrawlschedError):
    status = _ffi.CRAWLSCHED_PANIC


class InternalError(CrawlschedError):
    status = _ffi.CRAWLSCHED_INTERNAL


_ERRORS = {
    c.status: c
    for c in (
        NullArgumentError,
        InvalidArgumentError,
        InfeasibleError,
        NotConvergedError,
        TooLargeError,
        BufferTooSmallError,
        NotFoundError,
        CancelledError,
        NumericalError,
        PanicError,
        InternalError,
    )
}


def error_for(status, message):
    """The exception for a status (CrawlschedError for unknown ones)."""
    return _ERRORS.get(status, CrawlschedError)(status, message)


# ---- loading ----


def _candidates():
    """Where to look for the library, in order: $CRAWLSCHED_LIB; the copy
    inside this package (platform wheels carry one); a checkout's
    target/release when this package lives inside one; the system
    (ctypes.util.find_library, then the soname)."""
    env = os.environ.get("CRAWLSCHED_LIB")
    if env:
        return [env], True
    found = []
    bundled = pathlib.Path(__file__).resolve().parent / "libcrawlsched.so"
    if bundled.is_file():
        found.append(str(bundled))
    for parent in pathlib.Path(__file__).resolve().parents:
        if (parent / "Cargo.toml").is_file() and (parent / "include" / "crawlsched.h").is_file():
            for name in _LIB_NAMES:
                p = parent / "target" / "release" / name
                if p.is_file():
                    found.append(str(p))
            break
    system = ctypes.util.find_library("crawlsched")
    if system:
        found.append(system)
    found.append(f"libcrawlsched.so.{ABI_VERSION}")
    return found, False


def abi_mismatch(lib_abi, path, lib_version):
    """Why a library of ABI version ``lib_abi`` cannot be used, or None."""
    if lib_abi == ABI_VERSION:
        return None
    return (
        f"crawlsched: the library {path} (version {lib_version}) has ABI version {lib_abi}, "
        f"but this Python package needs ABI version {ABI_VERSION} (libcrawlsched.so.{ABI_VERSION}); "
        f"install the matching library or point CRAWLSCHED_LIB at it"
    )


def _declare(lib):
    """Sets argtypes/restype of every header function from _ffi."""
    missing = []
    for name, (restype, params) in _ffi.FUNCTIONS.items():
        try:
            fn = getattr(lib, name)
        except AttributeError:
            missing.append(name)
            continue
        fn.restype = restype
        fn.argtypes = [t for _, t in params]
    return missing


def _load():
    paths, from_env = _candidates()
    errors = []
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
            continue
        try:
            abi_fn = lib.crawlsched_abi_version
        except AttributeError:
            raise ImportError(f"crawlsched: {path} is not libcrawlsched (no crawlsched_abi_version)") from None
        abi_fn.restype = ctypes.c_uint32
        abi_fn.argtypes = []
        version_fn = lib.crawlsched_version
        version_fn.restype = ctypes.c_char_p
        version_fn.argtypes = []
        why = abi_mismatch(abi_fn(), path, version_fn().decode())
        if why:
            raise ImportError(why)
        missing = _declare(lib)
        if missing:
            raise ImportError(f"crawlsched: {path} lacks {len(missing)} functions of ABI {ABI_VERSION}: {', '.join(missing[:5])}")
        return lib, path
    where = "CRAWLSCHED_LIB" if from_env else "the checkout's target/release, find_library('crawlsched') and the soname"
    raise ImportError(
        "crawlsched: cannot load libcrawlsched (looked in " + where + "):\n  " + "\n  ".join(errors)
        + "\nBuild it with `cargo build --release --lib`, install it, or set CRAWLSCHED_LIB to its path."
    )


lib, library_path = _load()


def status_string(status):
    """The library's name of a status code, e.g. ``"CRAWLSCHED_NOT_FOUND"``."""
    return lib.crawlsched_status_string(status).decode()


# ---- calls ----


def call(fn, *args):
    """Calls a fallible C function with a fresh error struct as its last
    argument; raises the matching CrawlschedError on failure. The error
    struct is per call, so messages never mix between threads."""
    err = crawlsched_error_t()
    st = fn(*args, ctypes.byref(err))
    if st != _ffi.CRAWLSCHED_OK:
        raise error_for(st, err.message.decode("utf-8", "replace"))


def call_variable(fn, guess, dtype, *args, extra=()):
    """Calls a variable-size-output function ``f(*args, out, cap, *out_len,
    *extra, err)``: a first try with ``guess`` elements, then exactly the
    length the library asked for. Returns the filled NumPy array."""
    n = ctypes.c_size_t(0)
    out = np.empty(max(guess, 1), dtype=dtype)
    for _ in range(2):
        err = crawlsched_error_t()
        st = fn(*args, ptr(out), out.size, ctypes.byref(n), *extra, ctypes.byref(err))
        if st == _ffi.CRAWLSCHED_BUFFER_TOO_SMALL and n.value > out.size:
            out = np.empty(n.value, dtype=dtype)
            continue
        if st != _ffi.CRAWLSCHED_OK:
            raise error_for(st, err.message.decode("utf-8", "replace"))
        return out[: n.value]
    raise error_for(_ffi.CRAWLSCHED_BUFFER_TOO_SMALL, "the needed length changed between calls")


_CTYPES = {
    np.dtype(np.float64): ctypes.c_double,
    np.dtype(np.uint32): ctypes.c_uint32,
    np.dtype(np.uint64): ctypes.c_uint64,
    np.dtype(np.int64): ctypes.c_int64,
    np.dtype(np.uint8): ctypes.c_uint8,
}


def ptr(a):
    """A ctypes pointer to a contiguous NumPy array's data (NULL if None)."""
    if a is None:
        return None
    return a.ctypes.data_as(ctypes.POINTER(_CTYPES[a.dtype]))


def array(x, dtype=np.float64, name="array"):
    """x as a contiguous 1-D NumPy array of dtype: no copy when it already
    is one (the library only reads inputs during the call)."""
    a = np.ascontiguousarray(x, dtype=dtype)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim != 1:
        raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, f"{name} must be one-dimensional")
    return a


def uints(x, dtype, name):
    """Non-negative integers as a contiguous array of an unsigned dtype,
    refusing negative or fractional values instead of wrapping them."""
    raw = np.asarray(x)
    if raw.size and (raw.dtype.kind == "f" or raw.dtype.kind == "i"):
        if raw.dtype.kind == "f" and not np.all(np.floor(raw) == raw):
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, f"{name} must hold integers")
        if np.any(raw < 0):
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, f"{name} must not be negative")
    return array(raw, dtype, name)


def matrix(x, name="matrix"):
    """A square matrix (2-D or flat row-major) as a flat float64 array and
    its order n."""
    a = np.ascontiguousarray(x, dtype=np.float64)
    if a.ndim == 2:
        if a.shape[0] != a.shape[1]:
            raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, f"{name} must be square")
        return a.reshape(-1), a.shape[0]
    a = a.reshape(-1)
    n = int(round(a.size**0.5))
    if n * n != a.size:
        raise InvalidArgumentError(_ffi.CRAWLSCHED_INVALID_ARGUMENT, f"{name} must have n*n entries")
    return a, n


# ---- handles ----


class Handle:
    """Owns one C handle: ``close()`` (idempotent) or a ``with`` block
    releases it; a finalizer frees a forgotten one as a safety net. Do not
    call ``close()`` while another thread uses the object."""

    _free = None  # the C free function, set by subclasses
    _kind = "handle"

    def _own(self, p):
        self._p = ctypes.c_void_p(p)
        self._finalizer = weakref.finalize(self, type(self)._free, p)
        return self

    @classmethod
    def _new(cls, fn, *args):
        """Calls a constructor ``fn(*args, T **out, err)`` and wraps the handle."""
        out = ctypes.c_void_p()
        call(fn, *args, ctypes.byref(out))
        obj = cls.__new__(cls)
        return obj._own(out.value)

    @property
    def _ptr(self):
        p = getattr(self, "_p", None)
        if p is None or not p.value or not self._finalizer.alive:
            raise NullArgumentError(_ffi.CRAWLSCHED_NULL_ARGUMENT, f"this {self._kind} is closed")
        return p

    @property
    def closed(self):
        return not (getattr(self, "_finalizer", None) and self._finalizer.alive)

    def close(self):
        """Releases the C handle (later calls raise NullArgumentError)."""
        f = getattr(self, "_finalizer", None)
        if f is not None:
            f()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __repr__(self):
        state = "closed" if self.closed else "open"
        return f"<crawlsched.{type(self).__name__} {state}>"

