#!/usr/bin/env bash
# The Scrapy adapter's tests as CI runs them: a venv in target/scrapy-venv with Scrapy from PyPI, the Python
# binding (./bindings/python, bundling target/release/libcrawlsched.so, which must be built) and this adapter,
# then pytest (a real crawl of adapters/testsite, about 70 s). Arguments go to pytest.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
lib=$root/target/release/libcrawlsched.so
if [ ! -f "$lib" ]; then
  echo "adapters/scrapy/test.sh: $lib is missing; run cargo build --release --lib first" >&2
  exit 1
fi
venv=$root/target/scrapy-venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
"${pip[@]}" install "scrapy>=2.11,<3" "pytest>=7" "numpy>=1.21"
# Local packages without dependency resolution: "crawlsched" must come from this checkout, never an index.
"${pip[@]}" install --force-reinstall --no-deps "$root/bindings/python" "$root/adapters/scrapy"
cd "$root/adapters/scrapy"
CRAWLSCHED_LIB=$lib exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
