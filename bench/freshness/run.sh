#!/usr/bin/env bash
# Freshness planners (issue 20): crawlsched vs a NumPy solver of the same
# KKT system and, for the randomized policy with Poisson crawls, LambdaCrawl
# (BinaryLambdaCrawl of microsoft/Optimal-Freshness-Crawl-Scheduling).
# Not run by CI. From the repository root:
#   bash bench/freshness/run.sh
# Installs numpy and scipy (LambdaCrawl imports it) into target/py-venv,
# builds examples/freshness_solve (release; the library is timed inside it,
# Model::new + the solve), and writes bench/results/freshness.json.
# LambdaCrawl is read from $LAMBDACRAWL_DIR (default
# target/Optimal-Freshness-Crawl-Scheduling, a checkout of that repository);
# its column is skipped when LambdaCrawlExps.py is absent. Its np.object is
# replaced by object when the file is loaded (NumPy >= 1.24), not vendored.
# Knobs: FRESHNESS_BENCH_MAX_N (default 1e7), FRESHNESS_BENCH_ROUNDS (3),
# FRESHNESS_BENCH_CASES (e.g. "general:exp,closed"; default all; replaces
# only those cases' rows in the output),
# FRESHNESS_BENCH_OUT (default bench/results/freshness.json),
# LAMBDACRAWL_MAX_N (1e6: its Python loop needs ~40 s at 1e7).
# Peak memory ~3 GB (1e7 pages, NumPy temporaries); about 15 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
cargo build --release --example freshness_solve
VENV=target/py-venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet numpy scipy
"$VENV/bin/python" bench/freshness/compare.py
