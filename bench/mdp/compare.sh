#!/usr/bin/env bash
# External comparison of the MDP solvers (not run by CI; a benchmark).
#
#   bench/mdp/compare.sh            # from the repository root
#
# Creates a Python venv in target/mdp-venv, pip-installs pymdptoolbox and
# mdpsolver (PyPI; checked on Python 3.11), exports robots models
# (paper 001, λ = 1.5/N, μ = 1, γ = 100) with examples/mdp_export.rs, times
# crawlsched (in the export run) and both tools on the same models, and
# writes bench/results/mdp_external.json. Comparable pairs: average cost
# (crawlsched policy iteration vs pymdptoolbox RelativeValueIteration and
# mdpsolver's average-criterion MPI) and discounted β = 0.99 (policy
# iteration in all three). Sizes: SIZES="N:K ..." (default below; pymdptoolbox
# and mdpsolver need minutes beyond ~10^4 states).
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES=${SIZES:-"10:10 30:10 100:33"}
VENV=target/mdp-venv
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/pip" install -q pymdptoolbox mdpsolver numpy scipy
cargo build -q --release --example mdp_export
tmp=$(mktemp -d)
rows=()
for nk in $SIZES; do
  n=${nk%%:*}; k=${nk##*:}
  crawl=$(target/release/examples/mdp_export "$n" "$k" "$tmp/m.txt")
  row=$("$VENV/bin/python" bench/mdp/compare.py "$tmp/m.txt" "$crawl")
  echo "$row" >&2
  rows+=("$row")
done
rm -rf "$tmp"
mkdir -p bench/results
{ echo "["; printf "%s\n" "${rows[@]}" | sed '$!s/$/,/'; echo "]"; } > bench/results/mdp_external.json
echo "wrote bench/results/mdp_external.json" >&2
