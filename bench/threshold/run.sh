#!/usr/bin/env bash
# Threshold chain: crawlsched's exact solver vs SciPy spsolve on the same
# generator, and the largest model solved within 60 s (with peak memory).
# Not run by CI. From the repository root:
#   bash bench/threshold/run.sh
# Needs python3 with venv; installs numpy and scipy into bench/threshold/.venv
# and writes bench/results/threshold.json. Bounded: every Rust run is cut at
# 120 s and every SciPy run at 150 s; about 10 minutes in all, ~11 GB RAM
# peak (the R = 1 chain of 6·10⁶ states, the R = 2 chain of 8·10⁶ states).
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --example threshold_export
VENV=bench/threshold/.venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet numpy scipy
fi
"$VENV/bin/python" bench/threshold/compare.py
