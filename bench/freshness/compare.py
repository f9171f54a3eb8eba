"""crawlsched's freshness planners against NumPy and LambdaCrawl (issue 20).

Instance (seeded): n pages, change rates log-uniform on [1e-3, 10], weights
log-uniform on [0.1, 10], 0.2 n crawls per unit time (E[X] = 5/n).
Cases:
  general     Lagrange conditions (8)-(9), general weights; exponential and
              deterministic crawl time. NumPy: bisection on ln(lambda) with a
              vectorised Newton inversion of g per page (warm started).
  randomized  eq. (15) with Poisson crawls (exponential X), general weights.
              NumPy: Newton on the piecewise-linear KKT sum (exact, finite).
              LambdaCrawl: BinaryLambdaCrawl(epsilon = 0) of
              microsoft/Optimal-Freshness-Crawl-Scheduling, the same problem
              (binary freshness with Poisson crawl rates rho_i = f_i n/5).
  closed      Theorem 3.4 (c = mu), exponential X: f_i = ln(1 + mu_i E[X])/sum.
The library is timed inside examples/freshness_solve (a release binary:
Model::new + the solve, best of REPS, no Python in the measured span); NumPy
and LambdaCrawl inside their own Python process (arrays already in memory).
Every measurement runs in a fresh process, interleaved across tools.
Answers are checked: objective to 1e-9 relative, frequencies to 1e-9
relative on every well-conditioned page (see `agree`; `--recheck` redoes the
checks of bench/results/freshness.json from the saved plans).

Run through bench/freshness/run.sh.
"""

import json
import math
import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.path.join(ROOT, "target", "release", "examples", "freshness_solve")
WORK = os.path.join(ROOT, "target", "bench-freshness")
LAMBDACRAWL = os.environ.get(
    "LAMBDACRAWL_DIR",
    os.path.join(ROOT, "target", "Optimal-Freshness-Crawl-Scheduling"),
)


# Arrays from this size are always fresh mappings under glibc (its
# largest mmap threshold), for the library and for the API floor alike.
FRESH_MAPPING_BYTES = 32 << 20

def instance(n, seed=20):
    rng = np.random.default_rng(seed)
    mu = 10.0 ** rng.uniform(-3.0, 1.0, n)
    c = 10.0 ** rng.uniform(-1.0, 1.0, n)
    return mu, c, 5.0 / n


# ---------------------------------------------------------------- NumPy side


def big_g(s):
    """G(s) = 1 - (1 + s) e^{-s}; Taylor series below 0.25 (cancellation)."""
    small = s < 0.25
    ss = np.where(small, s, 0.0)
    # sum_{k>=2} (-1)^k (k-1) s^k / k!, k = 2..13 (Horner in s).
    poly = np.zeros_like(ss)
    for k in range(13, 1, -1):
        poly = poly * ss + (-1) ** k * (k - 1) / math.factorial(k)
    series = poly * ss * ss
    direct = -np.expm1(-s) - s * np.exp(-s)
    return np.where(small, series, direct)


def invert_g(ln_t, ln_p, s):
    """Vectorised Newton for G(s) = t from the warm start s: on ln G for
    t <= 1/2, on ln((1 + s)e^{-s}) = ln p above (accurate for p tiny)."""
    low = ln_t <= -math.log(2.0)
    for _ in range(60):
        g = big_g(s)
        e = np.exp(-s)
        step_lo = (np.log(g) - ln_t) * g / (s * e)
        step_hi = (np.log1p(s) - s - ln_p) * (1.0 + s) / -s
        step = np.where(low, step_lo, step_hi)
        s_new = np.maximum(s - step, np.where(low, s * 0.1, 1.6))
        s_new = np.where(low, np.minimum(s_new, 1.7), s_new)
        done = np.max(np.abs(s_new - s) / s) <= 1e-14
        s = s_new
        if done:
            break
    return s


def numpy_general(mu, c, mean, crawl):
    a = np.log1p(mu * mean) if crawl == "exp" else mu * mean
    ln_w = np.log(c) - np.log(mu * mean)
    s = np.full_like(mu, 1.0)

    def total(ell, s):
        ln_t = ell - ln_w
        act = ln_t < 0.0
        lt = np.where(act, ln_t, -1.0)
        ln_p = np.log(-np.expm1(lt))
        s = invert_g(lt, ln_p, s)
        x = np.where(act, a / s, 0.0)
        return x.sum(), x, s

    hi = ln_w.max()
    lo = hi - 1.0
    while total(lo, s)[0] < 1.0:
        lo -= 2.0 * (hi - lo)
    while hi - lo > 1e-15 * max(1.0, abs(lo)):
        mid = 0.5 * (lo + hi)
        tot, _, s = total(mid, s)
        if tot > 1.0:
            lo = mid
        else:
            hi = mid
        if abs(tot - 1.0) < 1e-15:
            break
    tot, x, _ = total(0.5 * (lo + hi), s)
    return x / tot


def numpy_randomized(mu, c, mean):
    beta = mu * mean  # (1 - h)/h for exponential X
    sigma = np.sqrt(c / (mu * mean))
    rho = (1.0 + beta.sum()) / (sigma * beta).sum()
    for _ in range(200):
        act = rho * sigma > 1.0
        new = (1.0 + beta[act].sum()) / (sigma[act] * beta[act]).sum()
        if new == rho:
            break
        rho = new
    x = np.maximum(rho * sigma - 1.0, 0.0) * beta
    return x / x.sum()


def numpy_closed(mu, mean):
    a = np.log1p(mu * mean)
    return a / a.sum()


def load_lambdacrawl():
    path = os.path.join(LAMBDACRAWL, "LambdaCrawlExps.py")
    if not os.path.exists(path):
        return None
    src = open(path).read().replace("np.object", "object")
    ns = {"__name__": "lambdacrawl"}
    exec(compile(src, path, "exec"), ns)
    return ns


def lambdacrawl_randomized(lc, mu, c, mean):
    bandwidth = 1.0 / mean
    rates, _ = lc["LambdaCrawlBinary_Epsilon"](c, mu, 0.0, [], [], bandwidth)
    return np.maximum(rates, 0.0) / bandwidth


# ---------------------------------------------------------------- objectives


def objective(case, crawl, mu, c, mean, f):
    q = mu * mean
    if case == "randomized":
        return float(np.sum(c * q / (q + f)))
    a = np.log1p(q) if crawl == "exp" else q
    w = mu if case == "closed" else c
    pos = f > 0
    s = np.where(pos, a / np.where(pos, f, 1.0), 1.0)
    psi = np.where(s < 1e-4, s / 2 - s * s / 6 + s**3 / 24, 1.0 + np.expm1(-s) / s)
    r = np.where(pos, ((q - a) + a * psi) / q, 1.0)
    return float(np.sum(w * r))


# ---------------------------------------------------------------- processes


def files(n):
    return [os.path.join(WORK, f"{name}_{n}.f64") for name in ("mu", "c")]


def write_instance(n):
    mu, c, _ = instance(n)
    fm, fc = files(n)
    mu.astype("<f8").tofile(fm)
    c.astype("<f8").tofile(fc)


def run_rust(case, crawl, n, reps):
    fm, fc = files(n)
    out = os.path.join(WORK, f"f_rust_{case}_{crawl}_{n}.f64")
    args = [BIN, case, crawl, repr(5.0 / n), fm, fc, out, str(reps)]
    r = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    return r, np.fromfile(out, dtype="<f8")


def run_python(tool, case, crawl, n, reps):
    out = os.path.join(WORK, f"f_{tool}_{case}_{crawl}_{n}.f64")
    args = [sys.executable, __file__, "--child", tool, case, crawl, str(n), out, str(reps)]
    p = subprocess.run(args, check=True, capture_output=True, text=True)
    return float(p.stdout), np.fromfile(out, dtype="<f8")


def child(tool, case, crawl, n, out, reps):
    n, reps = int(n), int(reps)
    fm, fc = files(n)
    mu, c = np.fromfile(fm, dtype="<f8"), np.fromfile(fc, dtype="<f8")
    mean = 5.0 / n
    lc = load_lambdacrawl() if tool == "lambdacrawl" else None
    best, f = math.inf, None
    for _ in range(reps):
        t = time.perf_counter()
        if tool == "lambdacrawl":
            f = lambdacrawl_randomized(lc, mu, c, mean)
        elif case == "general":
            f = numpy_general(mu, c, mean, crawl)
        elif case == "randomized":
            f = numpy_randomized(mu, c, mean)
        else:
            f = numpy_closed(mu, mean)
        best = min(best, time.perf_counter() - t)
    f.astype("<f8").tofile(out)
    print(best)


def conditioning(case, crawl, mu, mean, f):
    """|d ln f_i / d ln lambda| at the general-weights plan f (the
    amplification of an error in the multiplier), from f itself; inf for
    unvisited pages. d ln x/d ln t = G/(s G') = t (1 + s)/(s^2 p)."""
    q = mu * mean
    pos = f > 0
    a = np.log1p(q) if crawl == "exp" else q
    s = np.where(pos, a / np.where(pos, f, 1.0), 1.0)
    t = big_g(s)
    p = np.where(s > 1.0, (1.0 + s) * np.exp(-s), -np.expm1(np.log(t)))
    dlns = np.where(s <= 1.678, t / (s * s * np.exp(-s)), t * (1.0 + s) / (s * s * p))
    return np.where(pos, dlns, np.inf)


def agree(case, crawl, n, f_ref, f):
    """Objective to 1e-9 relative; frequencies to 1e-9 relative on every
    page whose frequency an error of 1e-13 in ln lambda moves by less than
    1e-9 (conditioning <= 1e4); the others (pages a hair above their
    cutoff, where f_i leaves zero with infinite slope and no double-precision
    solver resolves them) are counted and their largest difference reported.
    Unvisited pages must agree exactly (both zero) up to an absolute 1e-12/n."""
    mu, c, mean = instance(n)
    o_ref = objective(case, crawl, mu, c, mean, f_ref)
    o = objective(case, crawl, mu, c, mean, f)
    rel_o = abs(o - o_ref) / abs(o_ref)
    diff = np.abs(f - f_ref)
    pos = f_ref > 0
    rel = np.where(pos, diff / np.where(pos, f_ref, 1.0), 0.0)
    out = {"objective": o, "objective_rel_diff": rel_o, "freq_max_rel_diff_all": float(rel.max())}
    if case == "randomized":
        # f_i = K (rho sigma_i - 1) beta_i: u_i = f_i/beta_i is linear in
        # sigma_i on visited pages; d ln f_i/d ln rho = rho sigma_i/(rho sigma_i - 1).
        sigma = np.sqrt(c / (mu * mean))
        u = np.where(pos, f_ref / (mu * mean), 0.0)
        slope, _ = np.polyfit(sigma[pos], u[pos], 1)
        cond = np.where(pos, slope * sigma / np.where(pos, u, 1.0), np.inf)
    else:
        cond = conditioning(case, crawl, mu, mean, f_ref)
    well = pos & (cond <= 1e4)
    out["freq_max_rel_diff"] = float(rel[well].max(initial=0.0))
    out["ill_conditioned_pages"] = int((pos & ~well).sum())
    out["ill_conditioned_max_rel_diff"] = float(rel[pos & ~well].max(initial=0.0))
    zero_ok = float(diff[~pos].max(initial=0.0)) <= 1e-12 / n
    out["agree"] = bool(rel_o <= 1e-9 and out["freq_max_rel_diff"] <= 1e-9 and zero_ok)
    return out


def recheck():
    """Recomputes the checks of bench/results/freshness.json from the last
    round's saved plans (target/bench-freshness)."""
    path = os.path.join(ROOT, "bench", "results", "freshness.json")
    result = json.load(open(path))
    for row in result["rows"]:
        case, crawl, n = row["case"], row["crawl_time"], row["n"]
        f_rust = np.fromfile(os.path.join(WORK, f"f_rust_{case}_{crawl}_{n}.f64"), dtype="<f8")
        for tool in ("numpy", "lambdacrawl"):
            fp = os.path.join(WORK, f"f_{tool}_{case}_{crawl}_{n}.f64")
            if f"check_{tool}" in row and os.path.exists(fp):
                row[f"check_{tool}"] = agree(case, crawl, n, np.fromfile(fp, dtype="<f8"), f_rust)
    with open(path, "w") as fh:
        json.dump(result, fh, indent=1)
        fh.write("\n")


CASES = [
    ("general", "exp", [10**3, 10**4, 10**5, 10**6, 10**7]),
    ("general", "det", [10**3, 10**4, 10**5, 10**6, 10**7]),
    ("randomized", "exp", [10**5, 10**6, 10**7]),
    ("closed", "exp", [10**5, 10**6, 10**7]),
]


def merged_rows(old, new):
    """A partial run's rows in place of the same (case, crawl time) rows of
    the previous result, the others kept, in CASES order."""
    redone = {(r["case"], r["crawl_time"]) for r in new}
    kept = [r for r in old if (r["case"], r["crawl_time"]) not in redone]
    order = {(case, crawl): k for k, (case, crawl, _) in enumerate(CASES)}
    return sorted(kept + new, key=lambda r: (order[(r["case"], r["crawl_time"])], r["n"]))


def main():
    os.makedirs(WORK, exist_ok=True)
    max_n = int(os.environ.get("FRESHNESS_BENCH_MAX_N", 10**7))
    rounds = int(os.environ.get("FRESHNESS_BENCH_ROUNDS", 3))
    lc_max = int(os.environ.get("LAMBDACRAWL_MAX_N", 10**6))
    # e.g. "general:exp,closed": only those cases (a partial run replaces
    # their rows in FRESHNESS_BENCH_OUT, default
    # bench/results/freshness.json, and keeps the other cases' rows).
    only = [c for c in os.environ.get("FRESHNESS_BENCH_CASES", "").split(",") if c]
    have_lc = os.path.exists(os.path.join(LAMBDACRAWL, "LambdaCrawlExps.py"))
    rows = []
    for case, crawl, sizes in CASES:
        if only and case not in only and f"{case}:{crawl}" not in only:
            continue
        for n in sizes:
            if n > max_n:
                continue
            write_instance(n)
            # The cheap cases are timed 10 times up to 10^6 pages.
            reps = 3 if n >= 10**7 or (case == "general" and n >= 10**6) else 10
            np_reps = 1 if (case == "general" and n >= 10**6) else reps
            rust_t, numpy_t, lc_t = [], [], []
            for _ in range(rounds):
                r, f_rust = run_rust(case, crawl, n, reps)
                rust_t.append(r)
                t, f_np = run_python("numpy", case, crawl, n, np_reps)
                numpy_t.append(t)
                if case == "randomized" and have_lc and n <= lc_max:
                    t, f_lc = run_python("lambdacrawl", case, crawl, n, 1)
                    lc_t.append(t)
            best = min(rust_t, key=lambda r: r["total_s"])
            row = {
                "case": case,
                "crawl_time": crawl,
                "n": n,
                "crawlsched_s": best["total_s"],
                "crawlsched_model_new_s": best["new_s"],
                "crawlsched_solve_s": best["solve_s"],
                "crawlsched_cpu_s": min(r["cpu_s"] for r in rust_t),
                "memory_pass_s": min(r["memory_pass_s"] for r in rust_t),
                "memory_pass_all_cores_s": min(r["memory_pass_all_cores_s"] for r in rust_t),
                "memory_pass_threads": best["threads"],
                "numpy_s": min(numpy_t),
            }
            row["numpy_over_crawlsched"] = row["numpy_s"] / row["crawlsched_s"]
            # The physical limit: the faster of the two passes.
            limit = min(row["memory_pass_s"], row["memory_pass_all_cores_s"])
            row["crawlsched_over_memory_pass"] = row["crawlsched_s"] / limit
            row["crawlsched_owned_s"] = min(r["owned_s"] for r in rust_t)
            row["crawlsched_owned_over_memory_pass"] = row["crawlsched_owned_s"] / limit
            if n * 8 >= FRESH_MAPPING_BYTES:
                row["api_floor_s"] = min(r["api_floor_s"] for r in rust_t)
                row["crawlsched_over_api_floor"] = row["crawlsched_s"] / row["api_floor_s"]
            row["check_numpy"] = agree(case, crawl, n, f_np, f_rust)
            if lc_t:
                row["lambdacrawl_s"] = min(lc_t)
                row["lambdacrawl_over_crawlsched"] = row["lambdacrawl_s"] / row["crawlsched_s"]
                row["check_lambdacrawl"] = agree(case, crawl, n, f_lc, f_rust)
            row["load_average"] = os.getloadavg()[0]
            row["rounds"] = rounds
            print(json.dumps(row), file=sys.stderr, flush=True)
            rows.append(row)
    out = os.environ.get("FRESHNESS_BENCH_OUT") or os.path.join(
        ROOT, "bench", "results", "freshness.json"
    )
    if only and os.path.exists(out):
        rows = merged_rows(json.load(open(out))["rows"], rows)
    result = {
        "instance": "mu log-uniform [1e-3, 10], c log-uniform [0.1, 10], E[X] = 5/n, seed 20",
        "machine_cores": os.cpu_count(),
        "rounds": rounds,
        "note": "best of rounds x reps; every measurement in a fresh process, tools interleaved; "
        "memory_pass_s: one pass out_i = mu_i * c_i (mu and c read, out written, out already "
        "faulted in) on one thread, memory_pass_all_cores_s: the same pass split across "
        "memory_pass_threads threads (the library's thread count); crawlsched_over_memory_pass "
        "divides crawlsched_s (Model::new + solve) by the faster of the two, the physical limit; "
        "crawlsched_owned_s: the same solve with no copy (Model::from_vecs handed the caller's "
        "arrays, the plan written into the caller's buffer, already faulted in, through each "
        "case's _into form; same bits), "
        "crawlsched_owned_over_memory_pass divides it by the same limit; "
        "api_floor_s: the data movement Model::new + a solve cannot avoid (the inputs, mu and for "
        "general weights c, copied into fresh arrays as the model's own, then a fresh output "
        "written from the copies; arrays allocated as the library does, best of one thread and "
        "memory_pass_threads), crawlsched_over_api_floor divides crawlsched_s by it (only where an "
        "array spans at least 32 MiB, glibc's largest mmap threshold, so that every array of both "
        "is a fresh mapping; smaller arrays may be reused heap memory, differently on each side); "
        "crawlsched_cpu_s: the least process CPU time (all threads) of one Model::new + solve, "
        "which load from other processes inflates less than the wall time; load_average: the "
        "1-minute load average when the row was measured (rows without it predate the field; "
        "a partial run, FRESHNESS_BENCH_CASES, replaces only its cases' rows)",
        "lambdacrawl": LAMBDACRAWL if have_lc else None,
        "rows": rows,
    }
    with open(out, "w") as fh:
        json.dump(result, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        child(*sys.argv[2:])
    elif len(sys.argv) > 1 and sys.argv[1] == "--recheck":
        recheck()
    else:
        main()
