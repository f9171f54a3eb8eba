"""The low-level layer: generated declarations, coverage of the header,
library lookup, the ABI check, errors."""

import importlib.util
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import threading

import pytest

import crawlsched as cs
from crawlsched import _ffi, _lib

PKG = pathlib.Path(cs.__file__).resolve().parent
HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[2]
HEADER = REPO / "include" / "crawlsched.h"
API = REPO / "bindings" / "api" / "crawlsched-api.json"
GEN_API = REPO / "bindings" / "api" / "gen_api.py"
GEN = HERE.parent / "tools" / "gen_ffi.py"


def load_script(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def header_functions():
    text = re.sub(r"/\*.*?\*/", "", HEADER.read_text(), flags=re.S)
    return set(re.findall(r"\b(crawlsched_\w+)\(", text))


def test_api_description_is_up_to_date():
    gen_api = load_script("gen_api", GEN_API)
    assert gen_api.render(HEADER.read_text()) == API.read_text(), (
        "bindings/api/crawlsched-api.json is out of date: run python3 bindings/api/gen_api.py"
    )


def test_generated_module_is_up_to_date():
    gen = load_script("gen_ffi", GEN)
    assert gen.render(json.loads(API.read_text())) == (PKG / "_ffi.py").read_text(), (
        "src/crawlsched/_ffi.py is out of date: run python3 bindings/python/tools/gen_ffi.py"
    )


def test_every_header_function_is_declared_and_wrapped():
    names = header_functions()
    assert len(names) >= 143
    assert names == set(_ffi.FUNCTIONS)
    for name in names:
        fn = getattr(_lib.lib, name)
        assert fn.argtypes is not None or _ffi.FUNCTIONS[name][1] == [], name
    # Every function is called by the idiomatic layer (like Go's coverage test).
    source = "\n".join(p.read_text() for p in PKG.glob("*.py") if p.name != "_ffi.py")
    unwrapped = sorted(n for n in names if not re.search(rf"\blib\.{n}\b|\b_lib_handle\.{n}\b", source))
    assert not unwrapped, f"header functions without a Python wrapper: {unwrapped}"


def test_version_and_abi():
    assert cs.abi_version() == cs.ABI_VERSION == _ffi.CRAWLSCHED_ABI_VERSION == 2
    assert cs.version() == f"{_ffi.CRAWLSCHED_VERSION_MAJOR}.{_ffi.CRAWLSCHED_VERSION_MINOR}.{_ffi.CRAWLSCHED_VERSION_PATCH}"


def test_abi_mismatch_message():
    assert _lib.abi_mismatch(2, "/x/libcrawlsched.so", "0.2.0") is None
    msg = _lib.abi_mismatch(1, "/x/libcrawlsched.so", "0.1.0")
    assert "ABI version 1" in msg and "needs ABI version 2" in msg and "/x/libcrawlsched.so" in msg


def run_import(env_lib):
    env = dict(os.environ, CRAWLSCHED_LIB=str(env_lib))
    return subprocess.run([sys.executable, "-c", "import crawlsched"], env=env, capture_output=True, text=True)


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_import_refuses_a_library_of_another_abi(tmp_path):
    src = tmp_path / "fake.c"
    src.write_text(
        "unsigned crawlsched_abi_version(void) { return 1; }\n"
        'const char *crawlsched_version(void) { return "0.1.0"; }\n'
    )
    so = tmp_path / "libfake.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(so), str(src)], check=True)
    r = run_import(so)
    assert r.returncode != 0
    assert "ImportError" in r.stderr and "has ABI version 1" in r.stderr and "needs ABI version 2" in r.stderr


def test_import_explains_a_missing_library(tmp_path):
    r = run_import(tmp_path / "nowhere.so")
    assert r.returncode != 0
    assert "cannot load libcrawlsched" in r.stderr and "CRAWLSCHED_LIB" in r.stderr


def test_lookup_prefers_the_bundled_library_then_the_checkout_build():
    if os.environ.get("CRAWLSCHED_LIB"):
        pytest.skip("CRAWLSCHED_LIB is set")
    loaded = pathlib.Path(cs.library_path).resolve()
    bundled = pathlib.Path(cs.__file__).resolve().parent / "libcrawlsched.so"
    if bundled.is_file():
        assert loaded == bundled
    elif REPO in PKG.parents:
        assert loaded == (REPO / "target" / "release" / "libcrawlsched.so").resolve()
    else:
        pytest.skip("no bundled library and package installed outside the checkout")


def test_status_names_and_error_classes():
    assert cs.status_string(0) == "CRAWLSCHED_OK"
    assert cs.status_string(7) == "CRAWLSCHED_NOT_FOUND"
    assert cs.status_string(999) == "CRAWLSCHED_UNKNOWN_STATUS"
    e = _lib.error_for(7, "page 3 is not scheduled")
    assert isinstance(e, cs.NotFoundError) and isinstance(e, LookupError)
    assert (e.status, e.status_name, e.message) == (7, "CRAWLSCHED_NOT_FOUND", "page 3 is not scheduled")
    assert str(e) == "CRAWLSCHED_NOT_FOUND: page 3 is not scheduled"
    unknown = _lib.error_for(99, "new")
    assert type(unknown) is cs.CrawlschedError and unknown.status == 99


def test_messages_do_not_mix_between_threads():
    # Each call passes its own error struct: concurrent failures with
    # different messages each see their own.
    bad = {"rate": lambda: cs.Dist.exponential(-1.0), "probs": lambda: cs.Dist.hyperexponential([0.5, 0.6], [1, 2])}
    seen = {k: set() for k in bad}

    def worker(kind):
        for _ in range(300):
            try:
                bad[kind]()
            except cs.InvalidArgumentError as e:
                seen[kind].add(e.message)

    threads = [threading.Thread(target=worker, args=(k,)) for k in bad for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen["rate"]) == 1 and len(seen["probs"]) == 1
    assert seen["rate"] != seen["probs"]


def test_finalizer_frees_forgotten_handles():
    import gc

    d = cs.Dist.exponential(1.0)
    fin = d._finalizer
    del d
    gc.collect()
    assert not fin.alive


def test_numpy_inputs_without_copies():
    import numpy as np

    a = np.array([0.1, 0.5, 2.0])
    assert _lib.array(a) is a  # already contiguous float64: passed as is
    b = _lib.array([1, 2, 3])
    assert b.dtype == np.float64 and b.flags.c_contiguous
    strided = np.arange(6.0)[::2]
    assert _lib.array(strided).flags.c_contiguous
    with pytest.raises(cs.InvalidArgumentError):
        _lib.array(np.zeros((2, 2)))
