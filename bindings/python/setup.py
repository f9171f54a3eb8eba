"""Packaging of the Python binding.

When a built libcrawlsched is available it goes inside the package, next
to ``_lib.py`` (which loads it from there first), and the wheel becomes a
platform wheel ``py3-none-<platform>``: ctypes needs no per-Python-version
build, so one wheel per platform serves every Python 3. The library used is
``$CRAWLSCHED_WHEEL_LIB`` if set (build time only), else the checkout's
``target/release/libcrawlsched.so``; it is stripped on the way in. Without
either, the package is pure Python and loads the library from the system
(or ``$CRAWLSCHED_LIB``) at import. ``tools/build_wheel.sh`` builds the
release wheel and tags it manylinux with auditwheel.
"""

import os
import pathlib
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel
from setuptools.command.build_py import build_py

HERE = pathlib.Path(__file__).resolve().parent
BUNDLED_NAME = "libcrawlsched.so"


def library_to_bundle():
    env = os.environ.get("CRAWLSCHED_WHEEL_LIB")
    if env:
        p = pathlib.Path(env)
        if not p.is_file():
            raise SystemExit(f"CRAWLSCHED_WHEEL_LIB={env}: no such file")
        return p
    p = HERE.parent.parent / "target" / "release" / BUNDLED_NAME
    return p if p.is_file() else None


LIB = library_to_bundle()


class BuildPy(build_py):
    def run(self):
        super().run()
        if LIB is None:
            return
        dest = pathlib.Path(self.build_lib) / "crawlsched" / BUNDLED_NAME
        shutil.copyfile(LIB, dest)
        dest.chmod(0o644)
        if shutil.which("strip"):
            subprocess.run(["strip", "--strip-unneeded", "--remove-section=.comment", str(dest)], check=True)


class BinaryDistribution(Distribution):
    """With the library inside, the package is platform-specific: it
    installs into platlib and the wheel is not pure."""

    def has_ext_modules(self):
        return LIB is not None


class BdistWheel(bdist_wheel):
    def get_tag(self):
        python, abi, plat = super().get_tag()
        return ("py3", "none", plat) if LIB is not None else (python, abi, plat)


setup(distclass=BinaryDistribution, cmdclass={"build_py": BuildPy, "bdist_wheel": BdistWheel})
