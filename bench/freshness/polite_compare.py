"""crawlsched's per-host politeness plan against LambdaCrawl (issue 21).

microsoft/Optimal-Freshness-Crawl-Scheduling publishes the dataset of the
SIGIR-2019 politeness paper (Kolobov, Lubetzky, Peres, Horvitz) but not a
PoliteBinaryLambdaCrawl function: its LambdaCrawlExps.py has
BinaryLambdaCrawl (LambdaCrawlBinary_Epsilon), the unconstrained optimum of
the binary freshness cost with Poisson crawl rates, which is the randomized
policy of eq. (15) with exponential crawl time (h = R/(R + mu), so
beta = mu/R, and crawl rate rho_i = f_i R; see compare.py). The constrained
reference here is built from it: hosts over their cap are fixed at the cap
(each solved by BinaryLambdaCrawl on its own pages with bandwidth b_h) and
the rest re-solved with the remaining bandwidth, until no host exceeds its
cap (the saturated set only grows, so this ends at the KKT solution).
crawlsched's side is `polite_plan solve` (randomized objective, the same
instance through files).

Usage: LAMBDACRAWL_DIR=<dir with LambdaCrawlExps.py> python3 polite_compare.py [N] [HOSTS]
Prints one JSON object; exits 1 if the plans differ.
"""

import json
import os
import subprocess
import sys
import tempfile

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, "target", "release", "examples", "polite_plan")
LAMBDACRAWL = os.environ.get(
    "LAMBDACRAWL_DIR",
    os.path.join(ROOT, "target", "Optimal-Freshness-Crawl-Scheduling"),
)


def load_lambdacrawl():
    path = os.path.join(LAMBDACRAWL, "LambdaCrawlExps.py")
    src = open(path).read().replace("np.object", "object")
    ns = {"__name__": "lambdacrawl"}
    exec(compile(src, path, "exec"), ns)
    return ns


def instance(n, hosts, seed=21):
    """Pages as in compare.py; host sizes skewed (host floor(H u^2)), each
    host at least one page; host h capped at (0.6 + u_h) R pages_h / n."""
    rng = np.random.default_rng(seed)
    mu = np.exp(rng.uniform(np.log(1e-3), np.log(10.0), n))
    c = np.exp(rng.uniform(np.log(0.1), np.log(10.0), n))
    host = np.minimum((hosts * rng.uniform(0, 1, n) ** 2).astype(int), hosts - 1)
    host[:hosts] = np.arange(hosts)
    mean = 5.0 / n
    rate = 1.0 / mean
    count = np.bincount(host, minlength=hosts)
    caps = (0.6 + rng.uniform(0, 1, hosts)) * rate * count / n
    return mu, c, host, caps, mean


def lambdacrawl_polite(lc, mu, c, host, caps, rate):
    def solve(idx, bandwidth):
        r, _ = lc["LambdaCrawlBinary_Epsilon"](c[idx], mu[idx], 0.0, [], [], bandwidth)
        return np.maximum(r, 0.0)

    hosts = len(caps)
    sat = np.zeros(hosts, dtype=bool)
    rates = np.zeros_like(mu)
    while True:
        free = ~sat[host]
        rates[free] = solve(np.flatnonzero(free), rate - caps[sat].sum())
        sums = np.bincount(host[free], weights=rates[free], minlength=hosts)
        new = (~sat) & (sums > caps * (1 + 1e-12))
        if not new.any():
            break
        sat |= new
    for h in np.flatnonzero(sat):
        idx = np.flatnonzero(host == h)
        rates[idx] = solve(idx, caps[h])
    return rates / rate, sat


def objective(mu, c, mean, f):
    q = mu * mean
    return float(np.sum(c * q / (q + f)))


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    hosts = int(sys.argv[2]) if len(sys.argv) > 2 else 30
    mu, c, host, caps, mean = instance(n, hosts)
    lc = load_lambdacrawl()
    f_lc, sat = lambdacrawl_polite(lc, mu, c, host, caps, 1.0 / mean)
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, k) for k in ("mu", "c", "host", "rates", "out")]
        for p, v in zip(paths, (mu, c, host.astype(float), caps)):
            v.astype("<f8").tofile(p)
        out = subprocess.run(
            [BIN, "solve", repr(mean)] + paths, check=True, capture_output=True, text=True
        )
        ours = json.loads(out.stdout)
        f = np.fromfile(paths[4], dtype="<f8")
    on = (f > 1e-9) | (f_lc > 1e-9)
    worst = float(np.max(np.abs(f[on] - f_lc[on]) / np.maximum(f[on], f_lc[on])))
    both = {
        "pages": n,
        "hosts": hosts,
        "saturated_hosts_lambdacrawl": int(sat.sum()),
        "saturated_hosts_crawlsched": ours["saturated_hosts"],
        "cost_lambdacrawl": objective(mu, c, mean, f_lc),
        "cost_crawlsched": objective(mu, c, mean, f),
        "cost_crawlsched_reported": ours["objective"],
        "max_rel_diff_frequencies": worst,
        "max_abs_diff_frequencies": float(np.max(np.abs(f - f_lc))),
    }
    print(json.dumps(both))
    ok = worst < 1e-9 and both["saturated_hosts_lambdacrawl"] == ours["saturated_hosts"]
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
