"""A real Scrapy crawl of the local test site (adapters/testsite) with the crawlsched scheduler, against Scrapy's
default scheduler revisiting round robin, at the same budget for the same time on the same site (same seed: the same
change realisation in site time). The site referees: freshness and request rates come from its /__stats."""

import json
import math
import os
import pathlib
import statistics
import subprocess
import sys
import urllib.request

import pytest

HERE = pathlib.Path(__file__).resolve().parent
SITE = HERE.parents[1] / "testsite" / "site.py"

PAGES = 50
SEEDS = [int(x) for x in os.environ.get("CRAWLSCHED_SCRAPY_TEST_SEEDS", "1,2").split(",")]
TIME_SCALE = 10.0
# Rates per site second, log-uniform over four decades: per wall second 0.001 .. 10, against a round-robin
# revisit interval of PAGES / BUDGET = 2.5 s.
RATE_MIN, RATE_MAX = 1e-4, 1.0
BUDGET = 20.0  # requests per wall second
DURATION = float(os.environ.get("CRAWLSCHED_SCRAPY_TEST_DURATION", "60"))  # wall seconds per crawl
WINDOWS = 10
INITIAL_RATE = float(os.environ.get("CRAWLSCHED_SCRAPY_TEST_INITIAL_RATE", "0.1"))  # CRAWLSCHED_INITIAL_RATE


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def start_site(seed):
    args = [sys.executable, str(SITE), "--pages", str(PAGES), "--seed", str(seed), "--time-scale", str(TIME_SCALE),
            "--rate-min", str(RATE_MIN), "--rate-max", str(RATE_MAX)]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    line = proc.stdout.readline().split()
    assert line and line[0] == "READY", line
    return proc, line[1]


def start_crawl(site, scheduler, log, jobdir=None):
    args = [sys.executable, str(HERE / "crawl.py"), "--site", site, "--scheduler", scheduler,
            "--budget", str(BUDGET), "--duration", str(DURATION), "--initial-rate", str(INITIAL_RATE)]
    if jobdir:
        args += ["--jobdir", str(jobdir)]
    return subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Every crawl at once, each on its own copy of the site started with it: runs[(scheduler, seed)]."""
    tmp = tmp_path_factory.mktemp("crawls")
    out, procs = {}, []
    try:
        for seed in SEEDS:
            for name in ("crawlsched", "default"):
                site, base = start_site(seed)
                procs.append(site)
                log = tmp / f"{name}-{seed}.log"
                jobdir = tmp / f"job-{seed}" if name == "crawlsched" else None
                crawl = start_crawl(base, name, open(log, "w"), jobdir)
                procs.append(crawl)
                out[name, seed] = {"base": base, "crawl": crawl, "log": log, "jobdir": jobdir}
        for run in out.values():
            assert run["crawl"].wait(timeout=DURATION + 120) == 0, run["log"].read_text()[-3000:]
            # The same span for every run: from its first fetch, the crawl's length less a second of start-up.
            start = get_json(run["base"] + "__stats")["start"]
            end = start + (DURATION - 1.0) * TIME_SCALE
            run["stats"] = get_json(f"{run['base']}__stats?start={start}&end={end}&windows={WINDOWS}")
            run["truth"] = get_json(run["base"] + "__truth")
            if run["jobdir"]:
                run["state"] = json.loads((run["jobdir"] / "crawlsched.json").read_text())
        yield out
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_within_budget(runs):
    for key, run in runs.items():
        host = run["stats"]["hosts"]["127.0.0.1"]
        assert host["requests"] >= 0.8 * BUDGET * DURATION, (key, host)
        assert host["requests"] <= BUDGET * host["wall_span"] + 2, (key, host)
        # Requests leave the scheduler 1/BUDGET apart; the server sees them with the event loop's jitter.
        assert host["max_in_one_second"] <= 1.25 * BUDGET, (key, host)


def test_freshness_beats_default(runs):
    """Paired batch means: per seed and window, crawlsched's freshness less the default's."""
    diffs, report = [], {}
    for seed in SEEDS:
        cs, df = runs["crawlsched", seed]["stats"], runs["default", seed]["stats"]
        diffs += [a["freshness"] - b["freshness"] for a, b in zip(cs["windows"], df["windows"])]
        report[seed] = {"crawlsched": round(cs["freshness"], 4), "default": round(df["freshness"], 4),
                        "windows_crawlsched": [round(w["freshness"], 3) for w in cs["windows"]],
                        "windows_default": [round(w["freshness"], 3) for w in df["windows"]]}
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs))
    report["difference"], report["se"] = mean, se
    print("freshness", json.dumps(report))
    assert mean > 2 * se, report


def test_estimated_rates_approach_true_ones(runs):
    rel, guess = [], []
    for seed in SEEDS:
        run = runs["crawlsched", seed]
        truth = run["truth"]
        true_rate = {u: r * TIME_SCALE for u, r in zip(truth["urls"], truth["rates"])}
        pages = [p for p in run["state"]["pages"] if p["url"] in true_rate]
        assert len(pages) == PAGES
        # A rate is identifiable from "changed or not" visits once both outcomes were seen a few times: pages
        # unchanged at every visit (slow ones) or changed at every visit (fast ones) only bound it.
        well_visited = [p for p in pages if min(p["seen"]) >= 3]
        assert len(well_visited) >= PAGES // 5
        rel += [abs(p["state"]["rate"] / true_rate[p["url"]] - 1) for p in well_visited]
        guess += [abs(INITIAL_RATE / true_rate[p["url"]] - 1) for p in well_visited]
    report = {"pages": len(rel), "median_relative_error": statistics.median(rel),
              "initial_guess_median_relative_error": statistics.median(guess)}
    print("rates", json.dumps(report))
    assert statistics.median(rel) < 0.5, report
    assert statistics.median(rel) < statistics.median(guess) / 2, report
